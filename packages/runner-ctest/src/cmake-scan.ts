import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';

/** One command invocation of a CMake listfile. */
export interface CmakeCommand {
  /** Lower-cased: CMake command names are case-insensitive. */
  name: string;
  args: string[];
  /** Listfile the command is in, relative to the project root. */
  file: string;
  line: number;
  /** Inside an if/foreach/while block or a function/macro body: it may not run on a plain configure. */
  conditional: boolean;
}

const OPENERS = new Set(['if', 'foreach', 'while', 'function', 'macro', 'block']);
const CLOSERS = new Set(['endif', 'endforeach', 'endwhile', 'endfunction', 'endmacro', 'endblock']);

/** The length of a bracket opener `[[`, `[=[`, ... at `i`, or 0. */
function bracketOpen(text: string, i: number): number {
  const m = /^\[(=*)\[/.exec(text.slice(i, i + 40));
  return m ? m[0].length : 0;
}

function bracketEnd(text: string, from: number, open: number): number {
  const close = `]${'='.repeat(open - 2)}]`;
  const end = text.indexOf(close, from);
  return end < 0 ? text.length : end + close.length;
}

/** Reads the arguments after `(` at `i`; returns them and the index after the closing `)`. */
function readArgs(text: string, i: number): { args: string[]; end: number } {
  const args: string[] = [];
  let depth = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) i++;
    else if (c === '#') {
      const open = bracketOpen(text, i + 1);
      i = open
        ? bracketEnd(text, i + 1 + open, open)
        : text.indexOf('\n', i) < 0
          ? text.length
          : text.indexOf('\n', i);
    } else if (c === ')') {
      if (depth === 0) return { args, end: i + 1 };
      depth--;
      i++;
    } else if (c === '(') {
      depth++;
      i++;
    } else if (c === '"') {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < text.length) j++;
        value += text[j];
        j++;
      }
      args.push(value);
      i = j + 1;
    } else if (c === '[' && bracketOpen(text, i)) {
      const open = bracketOpen(text, i);
      const end = bracketEnd(text, i + open, open);
      args.push(text.slice(i + open, end - open));
      i = end;
    } else {
      const m = /^[^\s()#"]+/.exec(text.slice(i, i + 4096))!;
      args.push(m[0]);
      i += m[0].length;
    }
  }
  return { args, end: i };
}

/** The commands of a CMake listfile, in order, with comments left out. */
export function parseCmake(text: string, file: string): CmakeCommand[] {
  const out: CmakeCommand[] = [];
  let i = 0;
  let nesting = 0;
  const lineAt = (at: number): number => text.slice(0, at).split('\n').length;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '#') {
      const open = bracketOpen(text, i + 1);
      const eol = text.indexOf('\n', i);
      i = open ? bracketEnd(text, i + 1 + open, open) : eol < 0 ? text.length : eol;
      continue;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*\(/.exec(text.slice(i, i + 256));
    if (!m) {
      i++;
      continue;
    }
    const name = m[1]!.toLowerCase();
    const { args, end } = readArgs(text, i + m[0].length);
    if (CLOSERS.has(name)) nesting = Math.max(0, nesting - 1);
    out.push({ name, args, file, line: lineAt(i), conditional: nesting > 0 });
    if (OPENERS.has(name)) nesting++;
    i = end;
  }
  return out;
}

/** `include()` targets that name a file of the project itself (modules on CMAKE_MODULE_PATH are not followed). */
function includedFile(root: string, listDir: string, arg: string): string | undefined {
  const path = arg
    .replace(/\$\{(CMAKE_CURRENT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR)\}/g, listDir)
    .replace(/\$\{(PROJECT_SOURCE_DIR|CMAKE_SOURCE_DIR)\}/g, root);
  if (path.includes('${') || !/\.cmake$/i.test(path)) return undefined;
  const abs = isAbsolute(path) ? path : join(listDir, path);
  return relative(root, abs).startsWith('..') ? undefined : abs;
}

/**
 * The commands of a project's top-level CMakeLists.txt and of the project files it includes
 * (options often live in cmake/options.cmake), or undefined when there is no CMakeLists.txt.
 */
export async function readProjectCmake(root: string): Promise<CmakeCommand[] | undefined> {
  const seen = new Set<string>();
  const load = async (file: string, depth: number): Promise<CmakeCommand[] | undefined> => {
    if (seen.has(file) || depth > 4) return [];
    seen.add(file);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) return undefined;
    const out: CmakeCommand[] = [];
    for (const cmd of parseCmake(text, relative(root, file))) {
      out.push(cmd);
      const target =
        cmd.name === 'include' && cmd.args[0] ? includedFile(root, dirname(file), cmd.args[0]) : undefined;
      if (target)
        out.push(
          ...((await load(target, depth + 1)) ?? []).map((c) =>
            cmd.conditional ? { ...c, conditional: true } : c,
          ),
        );
    }
    return out;
  };
  return load(join(root, 'CMakeLists.txt'), 0);
}
