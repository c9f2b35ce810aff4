import { isAbsolute, relative } from 'node:path';
import type { Diagnostic, FixIt } from '@suture/core';

const LINE = /^(.+?):(\d+):(\d+): (fatal error|error|warning|note): (.*)$/;
const FIXIT = /^fix-it:"((?:\\.|[^"\\])*)":\{(\d+):(\d+)-(\d+):(\d+)\}:"((?:\\.|[^"\\])*)"$/;
const CONTEXT =
  /^(.+?): In (?:member )?function '([^']+)':$|^(.+?): In (?:constructor|destructor|instantiation of) '([^']+)'/;
const LD_IN_FUNCTION = /^(?:\/\S*ld\S*: )?(.+?): in function [`'](.+)':$/;
/** The name an error is about, in GCC's wording and in Clang's. */
const SYMBOL: readonly RegExp[] = [
  /'([^']+)' (?:was not declared|is not a member)/, // gcc
  /'([^']+)'(?: in namespace '[^']+')? does not name a type/, // gcc
  /has no member named '([^']+)'/, // gcc
  /(?:use of undeclared identifier|unknown type name) '([^']+)'/, // clang
  /no (?:member|type|template) named '([^']+)'/, // clang
];
const LD_ERROR =
  /^(?:\/\S*ld\S*: )?(?:(.+?):(?:\(\.\w+[^)]*\)|\d+)?: )?(undefined reference|multiple definition) (?:to|of) [`'](.+?)'(?:;.*)?$/;

function unescapeC(text: string): string {
  return text.replace(
    /\\(n|t|"|\\|'|0|[0-7]{3})/g,
    (_, c: string) =>
      ({ n: '\n', t: '\t', '"': '"', '\\': '\\', "'": "'", '0': '\0' })[c] ??
      String.fromCharCode(parseInt(c, 8)),
  );
}

/**
 * GCC/Clang diagnostics from a build log (with `-fdiagnostics-parseable-fixits`, LC_ALL=C):
 * errors with their notes and fix-its (1-based, end column exclusive), and linker errors.
 */
export function parseCompilerOutput(output: string, root: string): Diagnostic[] {
  const rel = (file: string): string => {
    const r = isAbsolute(file) ? relative(root, file) : file;
    return r.startsWith('..') ? file : r.split('\\').join('/');
  };
  // Clang ends each translation unit with "N error(s) generated." and names itself on driver errors.
  const source = /^\d+ errors? generated\.$|^clang(?:\+\+)?(?:-\d+)?: error:/m.test(output) ? 'clang' : 'gcc';
  const diagnostics: Diagnostic[] = [];
  let current: Diagnostic | undefined;
  let context: string | undefined;
  let linkContext: { object: string; fn: string } | undefined;
  for (const raw of output.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const ctx = CONTEXT.exec(line);
    if (ctx) {
      context = ctx[2] ?? ctx[4];
      continue;
    }
    const fix = FIXIT.exec(line);
    if (fix && current) {
      const f: FixIt = {
        file: rel(unescapeC(fix[1]!)),
        line: Number(fix[2]),
        column: Number(fix[3]),
        endLine: Number(fix[4]),
        endColumn: Number(fix[5]),
        replacement: unescapeC(fix[6]!),
      };
      current.fixIts.push(f);
      continue;
    }
    const m = LINE.exec(line);
    if (m) {
      const [, file, l, c, sev, message] = m as unknown as [string, string, string, string, string, string];
      if (sev === 'note' && current) {
        current.notes.push({ message, file: rel(file), line: Number(l), column: Number(c) });
        continue;
      }
      if (sev === 'note') continue;
      current = {
        source,
        severity: sev === 'warning' ? 'warning' : 'error',
        message,
        file: rel(file),
        line: Number(l),
        column: Number(c),
        notes: [],
        fixIts: [],
        tests: [],
        raw: line,
        ...(context ? { symbol: context } : {}),
      };
      const symbol = SYMBOL.map((re) => re.exec(message)?.[1]).find(Boolean);
      if (symbol) current.symbol = symbol;
      diagnostics.push(current);
      continue;
    }
    const inFn = LD_IN_FUNCTION.exec(line);
    if (inFn) {
      linkContext = { object: inFn[1]!, fn: inFn[2]! };
      continue;
    }
    const ld = LD_ERROR.exec(line);
    if (ld) {
      const [, file, what, symbol] = ld as unknown as [string, string | undefined, string, string];
      const needed = linkContext ? ` (needed by ${linkContext.fn} in ${linkContext.object})` : '';
      current = {
        source: 'ld',
        severity: 'error',
        message: `${what} ${what === 'undefined reference' ? 'to' : 'of'} '${symbol}'${needed}`,
        symbol,
        code: what === 'undefined reference' ? 'undefined-reference' : 'multiple-definition',
        ...(file && !file.endsWith('.o') ? { file: rel(file) } : {}),
        notes: linkContext ? [{ message: `needed by ${linkContext.fn} in ${linkContext.object}` }] : [],
        fixIts: [],
        tests: [],
        raw: line,
      };
      diagnostics.push(current);
    }
  }
  return diagnostics.filter((d) => d.severity === 'error');
}

/** `CMake Error at CMakeLists.txt:12 (add_executable):` blocks. */
export function parseCmakeErrors(output: string, root: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const m of output.matchAll(
    /^CMake Error(?: at (.+?):(\d+) \(([^)]*)\))?:\s*\n((?:[ \t]+.*\n?|\n)*)(?:Call Stack \(most recent call first\):\n((?:[ \t]+.*\n?)*))?/gm,
  )) {
    const message =
      (m[4] ?? '')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .join(' ')
        .slice(0, 2000) || 'CMake configuration failed';
    // An error a CMake module raises (a find_package of a package that is missing) is placed at
    // the project's own call that led to it: the first frame of the call stack in the repository.
    const frames: Array<{ file: string; line: number; symbol: string }> = [];
    if (m[1]) frames.push({ file: m[1], line: Number(m[2]), symbol: m[3]! });
    for (const f of (m[5] ?? '').matchAll(/^[ \t]+(.+?):(\d+) \(([^)]*)\)\s*$/gm))
      frames.push({ file: f[1]!, line: Number(f[2]), symbol: f[3]! });
    const own = frames
      .map((f) => ({ ...f, file: isAbsolute(f.file) ? relative(root, f.file) : f.file }))
      .find((f) => !f.file.startsWith('..') && !isAbsolute(f.file));
    const place = own ?? frames[0];
    const missing = /Could NOT find (\S+)/.exec(message)?.[1];
    out.push({
      source: 'cmake',
      severity: 'error',
      message,
      ...(place ? { file: place.file, line: place.line, symbol: place.symbol } : {}),
      notes:
        missing && own
          ? [
              {
                message: `${own.symbol}(${missing}) asks for ${missing}, which is not installed: install it, or turn off what needs it through the runner option "configureArgs"`,
                file: own.file,
                line: own.line,
              },
            ]
          : [],
      fixIts: [],
      tests: [],
      raw: m[0].slice(0, 4000),
    });
  }
  return out;
}
