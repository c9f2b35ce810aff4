import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { ConfigError } from '@suture/core';
import { lineOf, parseLocated, refLines, type LocatedText } from './locate.js';
import {
  bestError,
  errorPointer,
  errorText,
  GENERIC_KEYWORDS,
  officialValidator,
  type SpecVersion,
} from './schemas.js';

export interface LoadedSpec {
  /** Absolute path of the document. */
  file: string;
  /** The path as shown in messages. */
  display: string;
  version: SpecVersion;
  /** The document as written (its `$ref`s unresolved). */
  raw: Record<string, unknown>;
  /** The document with every `$ref` replaced by what it points at (circular ones left as `$ref`). */
  doc: Record<string, unknown>;
}

function shown(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith('..') ? rel : file;
}

function fail(display: string, line: number | undefined, pointer: string | undefined, what: string): never {
  const where = `${display}${line ? `:${line}` : ''}${pointer !== undefined ? ` (at ${pointer || '/'})` : ''}`;
  throw new ConfigError(`${where}: ${what}`, display, pointer);
}

function versionOf(raw: Record<string, unknown>, display: string, located: LocatedText): SpecVersion {
  const openapi = raw.openapi;
  const swagger = raw.swagger;
  if (typeof swagger === 'string' && swagger.startsWith('2.')) return '2.0';
  if (typeof openapi === 'string' && /^3\.0\./.test(openapi)) return '3.0';
  if (typeof openapi === 'string' && /^3\.1\./.test(openapi)) return '3.1';
  if (openapi !== undefined || swagger !== undefined)
    fail(
      display,
      lineOf(located, openapi !== undefined ? '/openapi' : '/swagger'),
      openapi !== undefined ? '/openapi' : '/swagger',
      `unsupported version ${JSON.stringify(openapi ?? swagger)}; suture reads Swagger 2.0 and OpenAPI 3.0 and 3.1`,
    );
  return fail(
    display,
    1,
    '',
    'not an OpenAPI document: it has no "openapi" (3.x) or "swagger" (2.0) key at the top; pass the API description with --spec',
  );
}

/**
 * Reads an OpenAPI 2.0, 3.0 or 3.1 document (JSON or YAML), checks it against the official
 * schema of its version and resolves its `$ref`s, across files too. Every problem is a
 * ConfigError naming the file, the line and the JSON pointer.
 */
export async function loadSpec(path: string, cwd: string = process.cwd()): Promise<LoadedSpec> {
  const file = resolve(cwd, path);
  const display = shown(file, cwd);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return fail(
      display,
      undefined,
      undefined,
      `cannot read the OpenAPI document (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); check the --spec path`,
    );
  }
  const located = parseLocated(text);
  const syntax = located.doc.errors[0];
  if (syntax) {
    const pos = syntax.linePos?.[0];
    fail(
      display,
      pos?.line,
      undefined,
      `not valid JSON or YAML: ${syntax.message.split('\n')[0]}${pos ? ` (column ${pos.col})` : ''}`,
    );
  }
  const raw = located.doc.toJS({ maxAliasCount: 1000 }) as unknown;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    fail(display, 1, '', 'not an OpenAPI document: the top level must be an object');
  const rawDoc = raw as Record<string, unknown>;
  const version = versionOf(rawDoc, display, located);
  const validate = officialValidator(version);
  if (!validate(rawDoc)) {
    const errors = validate.errors ?? [];
    const best = bestError(errors);
    if (best) {
      // what else is wrong with the same object (a misspelt key is also a missing one)
      const texts = [
        ...new Set(
          errors
            .filter(
              (e) =>
                e.instancePath === best.instancePath &&
                !GENERIC_KEYWORDS.has(e.keyword) &&
                // the Reference Object branch of every oneOf asks for a $ref: noise next to the real problem
                (e.params as { missingProperty?: string }).missingProperty !== '$ref',
            )
            .map(errorText),
        ),
      ];
      const pointer =
        best.keyword === 'additionalProperties' || texts.length > 1 ? best.instancePath : errorPointer(best);
      fail(
        display,
        lineOf(located, pointer),
        pointer,
        `invalid OpenAPI ${version} document: ${(texts.length > 0 ? texts.slice(0, 3) : [errorText(best)]).join('; ')}`,
      );
    }
  }
  let doc: Record<string, unknown>;
  try {
    doc = (await $RefParser.dereference(file, {
      dereference: { circular: 'ignore' },
      resolve: { http: false },
    })) as Record<string, unknown>;
  } catch (error) {
    const e = error as Error & { source?: string; targetRef?: string; path?: unknown };
    const message = e.message.split('\n')[0] ?? String(error);
    const ref = [...refLines(located).entries()].find(([r]) => {
      const [target, fragment] = r.split('#');
      // a missing file is named by its absolute path, a missing pointer by its fragment
      if (target && message.includes(resolve(dirname(file), target))) return true;
      return Boolean(fragment && message.includes(`#${fragment}`)) || message.includes(r);
    });
    fail(
      display,
      ref?.[1],
      undefined,
      `a $ref cannot be resolved${ref ? ` ("${ref[0]}")` : ''}: ${message}; fix the reference or the file it names`,
    );
  }
  return { file, display, version, raw: rawDoc, doc };
}
