import { isSecretName } from './secret-names.js';
import { looksLikeSecretValue } from './secret-values.js';

/**
 * The forms credential files put secrets in, as they show up in test output, exception messages
 * and reprs once code has read such a file: INI and `.pypirc` (`aws_secret_access_key = ...`,
 * `password=...` under any section), YAML (`password: ...`, `token: ...`), `.npmrc`
 * (`//registry.npmjs.org/:_authToken=...`, `_auth=`, `_password=`) and netrc
 * (`machine h login u password p`). A value is masked when its name is a secret one.
 */

/**
 * Where a line starts: the text's start, after a newline, or after a `\n` escape (a repr or a JSON
 * string of a file's content keeps it on one line).
 */
const LINE_START = String.raw`(^|\\[nr])`;
/**
 * What quotes or marks a line in test output without being part of it: pytest's `E   `, a diff's
 * `+`/`-`, a YAML list's `- `, a comment, a shell's `export`.
 */
const LINE_MARK = String.raw`[ \t]{0,20}(?:(?:E|>|\+|-|#|//|;|\*|\|)[ \t]{0,20})?(?:export[ \t]{1,20})?`;

/**
 * `name = value`, `name=value` or `name: value` standing alone on its line, the value unquoted
 * (quoted values are QUOTED_ASSIGNMENT's) up to the line's end, a `\n` escape or a closing quote.
 */
const CONFIG_LINE = new RegExp(
  String.raw`${LINE_START}(${LINE_MARK})([A-Za-z_][\w.-]{0,99})([ \t]{0,20}[=:][ \t]{0,20})((?:(?!\\[nrt])[^\n\r'"\x60]){1,500}?)(?=[ \t]{0,20}(?:$|\\[nrt])|['"\x60])`,
  'gm',
);

/** `.npmrc`'s per-registry credentials: `//host/path/:_authToken=...`. */
const NPMRC_SCOPED =
  /(?<=\/\/[^\s:]{1,300}:_(?:authToken|auth|password)[ \t]{0,20}=[ \t]{0,20})[^\s'"`\\]{4,}/g;

/** Whitespace between netrc tokens, including the escapes a repr or JSON string shows. */
const NETRC_SEP = String.raw`(?:\s|\\[nrt]){1,40}`;
/** netrc's `machine host login user password secret` (on one line or several). */
const NETRC_PASSWORD = new RegExp(
  String.raw`(?<=\b(?:machine${NETRC_SEP}[^\s\\]{1,300}|default)(?:${NETRC_SEP}(?:login|account|port)${NETRC_SEP}[^\s\\]{1,300}){0,3}${NETRC_SEP}password${NETRC_SEP})(?:(?!\\[nrt])\S){1,500}`,
  'g',
);

/** Type names that follow a secret name in code (`password: str`), not values. */
const TYPE_NAMES = new Set([
  'str',
  'string',
  'bytes',
  'int',
  'bool',
  'boolean',
  'number',
  'float',
  'any',
  'object',
  'unknown',
  'optional',
  'required',
]);

/**
 * Whether an unquoted value is code, not a secret: a call, an index, an attribute, a type, an
 * object literal's field (`token: tok,`) or an assignment that goes on (`password: str = ...`).
 */
function looksLikeCode(value: string): boolean {
  if (/[()[\]{}<>]/.test(value) || /[,;]$/.test(value) || /(^|\s)=|=\s|=$/.test(value.replace(/=+$/, '')))
    return true;
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return true;
  return TYPE_NAMES.has(value.toLowerCase());
}

/**
 * Masks the credential-file forms in `text` with `mask`, and passes every value it masked under a
 * secret name to `found` (the redactor learns them, so the same value is masked where it later
 * appears on its own).
 */
export function redactCredentialForms(
  text: string,
  mask: string,
  names: readonly RegExp[],
  found?: (value: string) => void,
): string {
  let out = text;
  if (out.includes(':_')) out = out.replace(NPMRC_SCOPED, (v) => (found?.(v), mask));
  if (/machine|default/.test(out) && out.includes('password'))
    out = out.replace(NETRC_PASSWORD, (v) => (found?.(v), mask));
  if (!/[=:]/.test(out)) return out;
  return out.replace(
    CONFIG_LINE,
    (whole, start: string, mark: string, name: string, op: string, raw: string) => {
      const value = raw.trim();
      if (!isSecretName(name, names) || !looksLikeSecretValue(value) || looksLikeCode(value)) return whole;
      found?.(value);
      return `${start}${mark}${name}${op}${mask}${raw.slice(raw.trimEnd().length)}`;
    },
  );
}
