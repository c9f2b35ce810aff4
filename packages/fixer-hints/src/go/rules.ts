import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Diagnostic, Edit, FixProposalInput, FixRequest } from '@suture/core';
import { diffEdit } from '../edits.js';
import { closestInOrder } from '../distance.js';
import { stdPackages } from './std-packages.js';
import { renameAt, visibleGoNames } from './visible-names.js';

const NEEDS_LLM = 'needs an LLM fixer (configure @suture/llm-claude-cli or @suture/llm-openai)';
const UNUSED_IMPORT = /^"([^"]+)" imported (?:as \S+ )?and not used$/;
const UNDEFINED = /^undefined: (\w+)$/;
const UNUSED_VARIABLE = /^declared and not used: (\w+)$/;

/**
 * A file's text without the declaration of an unused variable on `line`: only a lone `x := value`
 * whose value is a literal or a plain name, so removing it changes nothing that runs.
 */
export function removeDeclaration(text: string, line: number, name: string): string | undefined {
  const lines = text.split('\n');
  const rest = new RegExp(`^\\s*${name}\\s*:=\\s*(.*?)\\s*$`).exec(lines[line - 1] ?? '')?.[1];
  // a literal or a plain name: an index, a field through a pointer or a conversion may panic
  const plain = /^(?:[A-Za-z_]\w*|-?\d[\w.]*|"(?:[^"\\]|\\.)*"|`[^`]*`|'(?:[^'\\]|\\.)+')$/;
  // the value as written, or without a line comment after it
  if (rest === undefined || ![rest, rest.replace(/\s*\/\/.*$/, '')].some((v) => plain.test(v)))
    return undefined;
  lines.splice(line - 1, 1);
  return lines.join('\n');
}

/** A file's text with an import of `path` removed (a whole `import (...)` left empty goes too). */
export function removeImport(text: string, path: string): string | undefined {
  const quoted = path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const single = new RegExp(`^import\\s+(?:[\\w.]+\\s+)?"${quoted}"[ \\t]*(?://.*)?\\n`, 'm');
  if (single.test(text)) return text.replace(single, '');
  const inBlock = new RegExp(`^[ \\t]+(?:[\\w.]+\\s+)?"${quoted}"[ \\t]*(?://.*)?\\n`, 'm');
  if (!inBlock.test(text)) return undefined;
  return text.replace(inBlock, '').replace(/^import \(\s*\)\n/m, '');
}

/** A file's text with `import "path"` added where gofmt keeps it (sorted into the first import block). */
export function addImport(text: string, path: string): string | undefined {
  const block = /^import \(\n((?:[ \t]+.*\n|\n)*?)\)/m.exec(text);
  if (block) {
    const lines = block[1]!.split('\n').slice(0, -1);
    // the first group (before a blank line): the standard library's, by gofmt's convention
    const end = lines.findIndex((l) => l.trim() === '');
    const group = end < 0 ? lines.length : end;
    let at = 0;
    while (at < group && (/"([^"]+)"/.exec(lines[at]!)?.[1] ?? '') < path) at++;
    lines.splice(at, 0, `\t"${path}"`);
    const start = block.index + 'import (\n'.length;
    return text.slice(0, start) + lines.map((l) => `${l}\n`).join('') + text.slice(start + block[1]!.length);
  }
  const single = /^import\s+(?:[\w.]+\s+)?"[^"]+".*\n/m.exec(text);
  if (single) {
    const at = single.index + single[0].length;
    return `${text.slice(0, at)}import "${path}"\n${text.slice(at)}`;
  }
  const pkg = /^package \w+.*\n/m.exec(text);
  if (!pkg) return undefined;
  const at = pkg.index + pkg[0].length;
  return `${text.slice(0, at)}\nimport "${path}"\n${text.slice(at)}`;
}

/** The Go files read for one proposal, by project-relative path. */
type GoTexts = Map<string, Promise<string | undefined>>;

type Change = {
  file: string;
  apply: (text: string) => string | undefined;
  what: string;
  /** Why there is no fix after all, when `apply` finds the text is not as the error implies. */
  refusal?: string;
  /** Where in the file the change is made, for a change that rewrites one place of one line. */
  at?: { line: number; column: number };
};

/** The change one Go error calls for, or why there is none. */
async function changeFor(d: Diagnostic, root: string, texts: GoTexts): Promise<Change | string> {
  const where = `${d.file}:${d.line ?? ''}: ${d.message}`;
  const unused = UNUSED_IMPORT.exec(d.message);
  if (unused && d.file)
    return {
      file: d.file,
      apply: (t) => removeImport(t, unused[1]!),
      what: `removed the unused import "${unused[1]}"`,
    };
  const unusedVariable = UNUSED_VARIABLE.exec(d.message)?.[1];
  if (unusedVariable && d.file && d.line) {
    const line = d.line;
    return {
      file: d.file,
      apply: (t) => removeDeclaration(t, line, unusedVariable),
      what: `removed the unused variable ${unusedVariable}`,
      refusal: `${where}: its declaration is not a lone \`${unusedVariable} := value\` of a literal or a plain name, so removing it could change what runs`,
      at: { line, column: 0 },
    };
  }
  const name = UNDEFINED.exec(d.message)?.[1];
  if (name && d.file) {
    const candidates = stdPackages(name);
    if (candidates.length === 1)
      return {
        file: d.file,
        apply: (t) => addImport(t, candidates[0]!),
        what: `imported "${candidates[0]}" for ${name}`,
      };
    if (candidates.length > 1)
      return `${where}: more than one standard package is named ${name} (${candidates.join(', ')})`;
    if (d.line && d.column) return renameChange(d, name, root, where, texts);
  }
  return `${where}: no computed fix`;
}

/** `undefined: x` for a misspelling: the one closest name visible there, or why there is none. */
async function renameChange(
  d: Diagnostic,
  name: string,
  root: string,
  where: string,
  texts: GoTexts,
): Promise<Change | string> {
  const line = d.line!;
  const column = d.column!;
  const groups = await visibleGoNames(root, d.file!, line, column, texts);
  const pick = closestInOrder(name, groups ?? []);
  if (!pick.ok)
    return pick.candidates.length > 1
      ? `${where}: ${pick.candidates.join(', ')} are equally close to ${name}`
      : `${where}: no visible name is close to ${name}`;
  return {
    file: d.file!,
    apply: (t) => renameAt(t, line, column, name, pick.best),
    what: `${name} → ${pick.best}, the closest name visible there`,
    refusal: `${where}: the line does not hold ${name} where the compiler says`,
    at: { line, column },
  };
}

/**
 * The order to make the changes in, so that none moves the place of another: changes at one place
 * from the end of the file up, then the imports (at the top, where a line added or removed would
 * move every place below).
 */
function inOrder(changes: Change[]): Change[] {
  const placed = changes.filter((c) => c.at);
  placed.sort(
    (a, b) => a.file.localeCompare(b.file) || b.at!.line - a.at!.line || b.at!.column - a.at!.column,
  );
  return [...placed, ...changes.filter((c) => !c.at)];
}

/**
 * Fixes for a Go build failure that the compiler names but does not print: an unused import
 * removed, an unused variable whose declaration runs nothing removed, a missing standard-library
 * import added (when exactly one package has the name), a misspelled name replaced by the one
 * closest name visible where it is used (locals, then the package's names and imports, then Go's
 * predeclared ones; a tie is no fix). Every
 * error of the failure must have one, since a build is green only when all are fixed; otherwise the
 * failure is the next fixer's, with the reason. Undefined when the failure holds no Go error.
 */
export async function goProposal(request: FixRequest): Promise<FixProposalInput | undefined> {
  const errors = request.failure.diagnostics.filter(
    (d) => (d.source === 'go-build' || d.source === 'go-vet') && d.severity === 'error',
  );
  if (errors.length === 0) return undefined;
  const sources: GoTexts = new Map();
  const changes = await Promise.all(errors.map((d) => changeFor(d, request.project.root, sources)));
  const refused = changes.filter((c): c is string => typeof c === 'string');
  if (refused.length > 0)
    return {
      verdict: 'unfixable',
      diagnosis: `${refused[0]}${refused.length > 1 ? ` (and ${refused.length - 1} more)` : ''}; ${NEEDS_LLM}`,
      usage: { calls: 0, costUsd: 0 },
    };
  const texts = new Map<string, { before: string; after: string }>();
  for (const change of inOrder(changes as Change[])) {
    const current =
      texts.get(change.file) ??
      (await readFile(join(request.project.root, change.file), 'utf8').then(
        (t) => ({ before: t, after: t }),
        () => undefined,
      ));
    const after = current && change.apply(current.after);
    if (after === undefined && current && change.refusal)
      return {
        verdict: 'unfixable',
        diagnosis: `${change.refusal}; ${NEEDS_LLM}`,
        usage: { calls: 0, costUsd: 0 },
      };
    if (!current || after === undefined) return undefined;
    texts.set(change.file, { before: current.before, after });
  }
  const edits = [...texts]
    .map(([file, t]) => diffEdit(file, t.before, t.after))
    .filter((e): e is Edit => !!e);
  if (edits.length === 0) return undefined;
  const done = [...new Set((changes as Change[]).map((c) => c.what))];
  return {
    verdict: 'edits',
    edits,
    rationale: `${done.slice(0, 3).join('; ')}${done.length > 3 ? ` (and ${done.length - 3} more)` : ''}`,
    usage: { calls: 0, costUsd: 0 },
  };
}
