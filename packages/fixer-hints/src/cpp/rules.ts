import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Diagnostic, FixIt, FixRequest } from '@suture/core';
import { offsetOf } from '../edits.js';
import { trusted } from '../fixits.js';
import { includeInsertLine } from './includes.js';
import { displayColumnToIndex, lineColumnOf, tokenBefore } from './source.js';
import { stdHeaders } from './std-headers.js';

/** Fix-its computed for diagnostics the compiler gave none for, and the cases left alone on purpose. */
export interface ComputedFixIts {
  fixIts: FixIt[];
  /** What each computed fix-it does, for the rationale. */
  reasons: string[];
  /** Recognized errors with more than one possible fix: the candidates, for the diagnosis. */
  ambiguous: string[];
}

// A declarator can start with one of these, so before them `,` (another declarator) is as possible as `;`.
const DECLARATOR_KEYWORDS = new Set(['operator', 'decltype', 'typename', 'template', 'alignas']);
const KEYWORDS = new Set(
  'alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t class co_await co_return co_yield compl concept const consteval constexpr constinit const_cast continue default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr or or_eq private protected public register reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch this thread_local throw true try typedef typeid union unsigned using virtual void volatile wchar_t while xor xor_eq'.split(
    ' ',
  ),
);
// GCC's wording when a statement or declaration runs into the next token
const EXPECTED_SEMICOLON = /^expected (',' or ';'|';') before '(.+?)'( token)?$/;

/**
 * `expected ',' or ';' before 'return'` with no fix-it (GCC 12 gives one only after a statement):
 * `;` goes at the end of the previous token. Before a token that could start another declarator
 * (an identifier, `*`, `(`...) a `,` is as valid as a `;`, so that case is left alone.
 */
function missingSemicolon(
  d: Diagnostic,
  text: string,
): { fixIt?: FixIt; reason?: string; ambiguous?: string } | undefined {
  const m = EXPECTED_SEMICOLON.exec(d.message);
  if (!m || !d.file || !d.line || !d.column) return undefined;
  const [, expected, next] = m as unknown as [string, string, string];
  const word = /^[A-Za-z_]\w*$/.test(next);
  const declaration = expected !== "';'";
  if (declaration && !(next === '}' || (KEYWORDS.has(next) && !DECLARATOR_KEYWORDS.has(next)))) {
    return word || /^(?:\*|&|&&|\(|::|\.\.\.|\[|~)$/.test(next)
      ? {
          ambiguous: `${d.file}:${d.line}: ${d.message}: a ';' ends the declaration, a ',' would declare '${next}...' as well`,
        }
      : undefined;
  }
  if (!declaration && !(word || next === '}')) return undefined;
  const lines = text.split('\n');
  const lineText = lines[d.line - 1] ?? '';
  // GCC counts display columns (tabs to 8); an older one counts bytes
  const index = [displayColumnToIndex(lineText, d.column), d.column - 1].find(
    (i) =>
      i !== undefined &&
      lineText.startsWith(next, i) &&
      !(word && /\w/.test(lineText[i + next.length] ?? '')),
  );
  if (index === undefined) return undefined;
  const previous = tokenBefore(text, offsetOf(lines, d.line, index + 1));
  if (!previous) return undefined;
  const token = text.slice(previous.start, previous.end);
  if (!/[\w)\]"'}>]$/.test(token) && token !== '++' && token !== '--') return undefined;
  const at = lineColumnOf(text, previous.end);
  return {
    fixIt: {
      file: d.file,
      line: at.line,
      column: at.column,
      endLine: at.line,
      endColumn: at.column,
      replacement: ';',
      description: `';' after '${token}'`,
    },
    reason: `inserted ';' after '${token}' (${d.file}:${at.line}), where GCC said ${d.message}`,
  };
}

// GCC's and Clang's wordings
const NOT_DECLARED = [
  /^'(\w+)' is not a member of 'std'$/,
  /^'(\w+)' in namespace 'std' does not name a (?:template )?type$/,
  /^'std::(\w+)' has not been declared$/,
  /^no (?:member|type|template) named '(\w+)' in namespace 'std'(?:; did you mean .*)?$/,
];

/** `'sqrt' is not a member of 'std'` with no note from GCC: the one header the standard declares it in. */
function missingHeader(
  d: Diagnostic,
  text: string,
  adding: ReadonlySet<string>,
): { fixIt?: FixIt; reason?: string; ambiguous?: string } | undefined {
  const name = NOT_DECLARED.map((re) => re.exec(d.message)?.[1]).find((n) => n !== undefined);
  if (!name || !d.file) return undefined;
  const headers = stdHeaders(name);
  if (headers.length === 0) return undefined;
  if (headers.length > 1) return { ambiguous: `std::${name} is declared in ${headers.join(', ')}` };
  const header = headers[0]!;
  // another error of the file already adds it
  if (adding.has(header)) return undefined;
  const line = includeInsertLine(text, header);
  if (line === undefined) return undefined;
  return {
    fixIt: {
      file: d.file,
      line: line + 1,
      column: 1,
      endLine: line + 1,
      endColumn: 1,
      replacement: `#include ${header}\n`,
      description: `std::${name} is declared in ${header}`,
    },
    reason: `added #include ${header} to ${d.file} for std::${name}`,
  };
}

/** The headers a fix-it adds (`#include <x>` insertions), so a header is added once per file. */
function includedBy(fixIts: readonly FixIt[], file: string): Set<string> {
  return new Set(
    fixIts
      .filter((f) => f.file === file)
      .flatMap((f) => /^#include (<[^>]+>)/.exec(f.replacement)?.[1] ?? []),
  );
}

/** Fix-its for the C/C++ errors that GCC reports without one. */
export async function cppFixIts(request: FixRequest): Promise<ComputedFixIts> {
  const out: ComputedFixIts = { fixIts: [], reasons: [], ambiguous: [] };
  const given = request.failure.diagnostics.flatMap((d) => d.fixIts.filter(trusted));
  const texts = new Map<string, string | undefined>();
  for (const d of request.failure.diagnostics) {
    if (d.severity !== 'error' || d.fixIts.some(trusted) || !d.file) continue;
    if (!texts.has(d.file))
      texts.set(d.file, await readFile(join(request.project.root, d.file), 'utf8').catch(() => undefined));
    const text = texts.get(d.file);
    if (text === undefined) continue;
    const found =
      missingSemicolon(d, text) ?? missingHeader(d, text, includedBy([...given, ...out.fixIts], d.file));
    if (found?.ambiguous) out.ambiguous.push(found.ambiguous);
    if (found?.fixIt) {
      out.fixIts.push(found.fixIt);
      out.reasons.push(found.reason!);
    }
  }
  return out;
}
