import { isAbsolute, relative, resolve } from 'node:path';
import type { Diagnostic } from '@suture/core';

const LOCATED = /^((?:[A-Za-z]:)?[^\s:][^:]*\.(?:go|mod|work|s|c|h)):(\d+)(?::(\d+))?: (.*)$/;

/** A path as the Go tool printed it, relative to the project root when inside it. */
export function projectPath(root: string, cwd: string, file: string): string {
  const abs = isAbsolute(file) ? file : resolve(cwd, file);
  const rel = relative(root, abs).split('\\').join('/');
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : abs;
}

/** The name a Go compiler error is about (`undefined: total`, `"strings" imported and not used`). */
function symbolOf(message: string): string | undefined {
  return (
    /^undefined: (\S+)/.exec(message)?.[1] ??
    /^"([^"]+)" imported (?:as \S+ )?and not used/.exec(message)?.[1] ??
    /^declared and not used: (\S+)/.exec(message)?.[1] ??
    /\(type \S+ has no field or method (\w+)/.exec(message)?.[1]
  );
}

/**
 * The diagnostics of a package's build output: `file:line:col: message` lines, each with the
 * indented lines after it as notes, from the compiler (`go-build`) or from the vet checks `go test`
 * runs first (`go-vet`, after a `# [pkg]` header). A failed build that names no place at all (an
 * import cycle, two packages in one folder, a missing module) is one diagnostic without a file,
 * so the failure still reaches the report and the fixer.
 */
export function buildDiagnostics(
  root: string,
  cwd: string,
  lines: readonly string[],
  dirOf: (importPath: string) => string | undefined = () => undefined,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const unplaced: string[] = [];
  let source = 'go-build';
  for (const raw of lines) {
    const line = raw.replace(/\r?\n$/, '');
    if (/^# \[.*\]$/.test(line)) {
      source = 'go-vet';
      continue;
    }
    if (/^# /.test(line)) {
      source = 'go-build';
      continue;
    }
    const m = LOCATED.exec(line);
    if (m) {
      const message = m[4]!;
      const symbol = symbolOf(message);
      out.push({
        source,
        severity: 'error',
        message,
        file: projectPath(root, cwd, m[1]!),
        line: Number(m[2]),
        ...(m[3] ? { column: Number(m[3]) } : {}),
        ...(symbol ? { symbol } : {}),
        notes: [],
        fixIts: [],
        tests: [],
        raw: line,
      });
      continue;
    }
    const last = out.at(-1);
    if (last && /^\s+\S/.test(line) && !/^\s*too many errors$/.test(line)) {
      last.notes.push({ message: line.trim() });
      last.raw = `${last.raw ?? ''}\n${line}`;
    } else if (!last && line.trim()) unplaced.push(line);
  }
  if (out.length === 0 && unplaced.length > 0) {
    const message = unplaced.join('\n').slice(0, 2000);
    const [file, ...others] = filesNamed(root, cwd, unplaced, dirOf);
    out.push({
      source,
      severity: 'error',
      message,
      ...(file ? { file } : {}),
      notes: others.map((f) => ({ message: 'also named by this error', file: f })),
      fixIts: [],
      tests: [],
      raw: message,
    });
  }
  return out;
}

/**
 * The source files an unplaced build error names, project-relative: the files of an import chain
 * (`package a` / `imports b from a.go` / `imports a from b.go`: each file is in the folder of the
 * package named on the line before) and the files of `found packages x (x.go) and y (y.go) in DIR`.
 */
function filesNamed(
  root: string,
  cwd: string,
  lines: readonly string[],
  dirOf: (importPath: string) => string | undefined,
): string[] {
  const files: string[] = [];
  let pkg: string | undefined;
  for (const line of lines) {
    const start = /^package (\S+)/.exec(line);
    if (start) pkg = start[1];
    const step = /^\s*imports (\S+) from ([\w.-]+\.go)\b/.exec(line);
    if (step) {
      const dir = pkg === undefined ? undefined : dirOf(pkg);
      if (dir !== undefined) files.push(dir === '.' ? step[2]! : `${dir}/${step[2]}`);
      pkg = step[1];
    }
    const found = /^found packages \S+ \(([\w.-]+\.go)\) and \S+ \(([\w.-]+\.go)\) in (.+)$/.exec(line);
    if (found)
      for (const f of [found[1]!, found[2]!]) files.push(projectPath(root, cwd, resolve(found[3]!, f)));
  }
  return [...new Set(files)];
}

/** A `go` error that stops before any package builds (a broken go.mod, a missing module). */
export function setupError(root: string, cwd: string, text: string): Diagnostic | undefined {
  const lines = text.split('\n').filter((l) => /^go: |^\S.*\.(?:mod|work):\d+/.test(l));
  if (lines.length === 0) return undefined;
  const located = lines
    .map((l) => LOCATED.exec(l.replace(/^go: (?:errors parsing \S+:\s*)?/, '')))
    .find(Boolean);
  return {
    source: 'go',
    severity: 'error',
    message: lines.join('\n').slice(0, 2000),
    ...(located ? { file: projectPath(root, cwd, located[1]!), line: Number(located[2]) } : {}),
    notes: [],
    fixIts: [],
    tests: [],
    raw: text.slice(0, 4000),
  };
}
