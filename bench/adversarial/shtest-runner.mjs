// A third-party runner of the adversarial benchmark, loaded by path: every `tests/*.test.sh` is
// one test, run with `sh`, passing when it exits 0. It gives no `testModel`, so the weakening
// guard cannot read its tests: what protects them is what core does for any runner (a test-only
// edit is refused as unread, a test edit beside a code fix goes through the differential check).
// Its `checkTampering` is what a plugin author writes from docs/analyzer.md for a sourced script.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { API_VERSION, defineAnalyzer, defineRunner, runProcess } from '@suture/core';

const DIR = 'tests';
const SUFFIX = '.test.sh';

async function testFiles(root) {
  const names = await readdir(join(root, DIR)).catch(() => []);
  return names
    .filter((n) => n.endsWith(SUFFIX))
    .sort()
    .map((n) => posix.join(DIR, n));
}

async function run(ctx) {
  const started = Date.now();
  const tests = [];
  let output = '';
  for (const file of await testFiles(ctx.root)) {
    if (ctx.selection && !ctx.selection.includes(file)) continue;
    const proc = await runProcess('sh', [file], {
      cwd: ctx.root,
      timeoutMs: Math.max(1, ctx.timeoutMs - (Date.now() - started)),
      signal: ctx.signal,
      tailBytes: 16 * 1024,
    });
    output = `${output}$ sh ${file}\n${proc.output}`.slice(-32 * 1024);
    const passed = proc.exitCode === 0;
    const test = {
      id: file,
      name: file.slice(DIR.length + 1, -SUFFIX.length),
      file,
      line: 1,
      status: proc.timedOut ? 'timeout' : passed ? 'passed' : 'failed',
      durationMs: proc.durationMs,
      ...(passed ? {} : { message: proc.output.trim().split('\n').pop() ?? `exit ${proc.exitCode}` }),
      ...(passed ? {} : { trace: `$ sh ${file}\n${proc.output}`.slice(-4000) }),
    };
    tests.push(test);
    ctx.onTestResult?.(test);
  }
  const failed = tests.some((t) => t.status !== 'passed');
  return {
    status: failed ? 'failed' : 'passed',
    tests,
    diagnostics: [],
    exitCode: failed ? 1 : 0,
    command: `sh ${DIR}/*${SUFFIX}`,
    output,
    selected: ctx.selection !== undefined,
    durationMs: Date.now() - started,
  };
}

const fingerprint = (...parts) => createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);

/** What a script the tests source may not add: a way to end or fake the test that sources it. */
const TAMPERING = [
  [/^\s*(?:exit|return)\b/, 'ends the test that sources it before its checks run'],
  [/^\s*exec\b/, 'replaces the test that sources it with another program'],
  [/\btrap\b.*\b(?:EXIT|0)\b/, "sets an exit trap that decides the test's status"],
  [/^\s*alias\b/, 'redefines a command the test checks with'],
];

function checkTampering(file, before, after) {
  if (file.endsWith(SUFFIX)) return undefined;
  const had = new Set((before ?? '').split('\n').map((l) => l.trim()));
  const lines = after.split('\n');
  for (const [i, line] of lines.entries()) {
    if (had.has(line.trim()) || /^\s*#/.test(line)) continue;
    // inside a function body a return is the function's own
    const inFunction = /\(\)\s*\{[^}]*$/.test(lines.slice(0, i).join('\n'));
    for (const [re, why] of TAMPERING)
      if (re.test(line) && !(inFunction && /^\s*return\b/.test(line)))
        return `line ${i + 1} adds \`${line.trim()}\`, which ${why}`;
  }
  return undefined;
}

function analyzer() {
  return defineAnalyzer({
    name: 'suture-bench-shtest/analyzer',
    apiVersion: API_VERSION,
    isTestFile: (file) => file.endsWith(SUFFIX),
    checkTampering,
    async analyze(result) {
      return result.tests
        .filter((t) => t.status !== 'passed' && t.status !== 'skipped')
        .map((t) => ({
          id: t.id,
          kind: t.status === 'timeout' ? 'timeout' : 'assertion',
          title: `${t.name}: ${t.message ?? t.status}`,
          tests: [t.id],
          location: { file: t.file, line: 1 },
          evidence: t.trace ?? t.message ?? t.status,
          fingerprint: fingerprint(t.id, t.message ?? ''),
          repairable: true,
        }));
    },
    // the test file and the scripts it sources (`. ./src/calc.sh`)
    async scope(failure, project) {
      const file = failure.location?.file ?? '';
      const text = await readFile(join(project.root, file), 'utf8').catch(() => '');
      const sourced = [...text.matchAll(/^\s*\.\s+(?:\.\/)?(\S+\.sh)\s*$/gm)].map((m) => m[1]);
      return {
        entries: [
          { file, role: 'test', reasons: ['the failing test'] },
          ...sourced.map((s) => ({ file: s, role: 'source', reasons: [`sourced by ${file}`] })),
        ],
      };
    },
  });
}

export default function shtest() {
  return defineRunner({
    name: 'suture-bench-shtest',
    apiVersion: API_VERSION,
    language: 'shell',
    supportsSelection: true,
    run,
    analyzer,
  });
}
