import { isAbsolute, join, relative, resolve } from 'node:path';
import type { Diagnostic } from '@suture/core';
import { exists } from './exists.js';

/** Most of a failed step's output the diagnostic keeps. */
const MAX_RAW = 4000;

/** `path(12):` (MSVC, doctest, jsoncpp's tests), `path:12:` (GCC, GoogleTest, Catch2), a Python traceback. */
const PLACES = [
  /^\s*(?:\*\s*)?([^\s():"'][^():"']*?)\((\d+)\)\s*:/,
  /^\s*([^\s:"'][^:"']*?):(\d+)(?::\d+)?:/,
  /^\s*File "([^"]+)", line (\d+)/,
];

/** Ninja's record of a failed edge: `FAILED: <outputs>`, its command, then what the command printed. */
function failedStep(output: string): { target?: string; text: string } {
  const lines = output.split('\n');
  const at = lines.findIndex((l) => l.startsWith('FAILED: '));
  if (at < 0) return { text: output };
  const end = lines.findIndex((l, i) => i > at + 1 && /^\[\d+\/\d+\] |^ninja: |^FAILED: /.test(l));
  const target = lines[at]!.slice('FAILED: '.length).trim().split(/\s+/)[0];
  // the command line itself names object files and flags, not places
  const text = lines.slice(at + 2, end < 0 ? undefined : end).join('\n');
  return { ...(target ? { target } : {}), text };
}

/**
 * What a long step printed, cut to its failure: each line that names a place or says something
 * failed, once (a check that fails in a loop prints the same line hundreds of times), with the two
 * lines after it, then the step's last lines.
 */
function focus(text: string): string {
  if (text.length <= MAX_RAW) return text;
  const lines = text.split('\n');
  const tailFrom = Math.max(0, lines.length - 5);
  const keep = new Set<number>();
  const seen = new Set<string>();
  let repeated = 0;
  for (let i = 0; i < tailFrom; i++) {
    const l = lines[i]!;
    if (!PLACES.some((p) => p.test(l)) && !/fail|error|expected|actual|assert/i.test(l)) continue;
    if (seen.has(l)) {
      repeated++;
      continue;
    }
    seen.add(l);
    for (let k = i; k <= i + 2 && k < tailFrom; k++) keep.add(k);
  }
  const out: string[] = [];
  let last = -1;
  for (const i of [...keep].sort((a, b) => a - b)) {
    if (i > last + 1) out.push('...');
    out.push(lines[i]!);
    last = i;
  }
  const tail = [
    ...(repeated > 0 ? [`... (${repeated} repeated lines left out)`] : []),
    ...(tailFrom > last + 1 ? ['...'] : []),
    ...lines.slice(tailFrom),
  ].join('\n');
  return `${out.join('\n').slice(0, MAX_RAW - tail.length - 1)}\n${tail}`;
}

/**
 * A build that failed with no compiler or CMake diagnostic: one of its own steps failed (a code
 * generator, or a unit test the build runs after linking, as jsoncpp's does). The diagnostic
 * keeps that step's output, and is placed at the first line of a source of the repository (not
 * of the build folder) the output names, where the step says what went wrong.
 */
export async function failedStepDiagnostic(
  output: string,
  root: string,
  buildDir: string,
  exitCode: number | null,
): Promise<Diagnostic> {
  const step = failedStep(output);
  const base = step.target
    ? `the build step for ${step.target} failed (exit code ${exitCode})`
    : `the build failed (exit code ${exitCode})`;
  const build = resolve(root, buildDir);
  for (const line of step.text.split('\n')) {
    for (const pattern of PLACES) {
      const m = pattern.exec(line);
      if (!m) continue;
      const abs = isAbsolute(m[1]!) ? m[1]! : join(root, m[1]!);
      const rel = relative(root, abs);
      if (rel.startsWith('..') || isAbsolute(rel) || !relative(build, abs).startsWith('..')) continue;
      if (Number(m[2]) < 1 || !(await exists(abs))) continue;
      return {
        source: 'build',
        severity: 'error',
        message: `${base}: ${line.trim()}`.slice(0, 300),
        file: rel.split('\\').join('/'),
        line: Number(m[2]),
        notes: [],
        fixIts: [],
        tests: [],
        raw: focus(step.text),
      };
    }
  }
  return {
    source: 'build',
    severity: 'error',
    message: base,
    notes: [],
    fixIts: [],
    tests: [],
    raw: step.target ? focus(step.text) : output.slice(-MAX_RAW),
  };
}
