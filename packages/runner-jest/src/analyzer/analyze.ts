import { createHash } from 'node:crypto';
import type {
  Diagnostic,
  FailureInput,
  FailureKind,
  Location,
  ProjectInfo,
  RunResult,
  TestResult,
} from '@suture/core';
import { parseId } from '../ids.js';
import { enclosingSymbol, type ScriptCache } from './js-model.js';
import { projectFrames } from './stack.js';

function fingerprint(parts: ReadonlyArray<string | undefined>): string {
  return createHash('sha1')
    .update(parts.map((p) => p ?? '').join('\0'))
    .digest('hex')
    .slice(0, 16);
}

function normalize(message: string): string {
  return message
    .replace(/0x[0-9a-f]+/gi, '0x?')
    .replace(/:\d+(:\d+)?/g, ':?')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}

const ERROR_TYPE = /^\s*(?:thrown: )?"?(\w*Error|Error)(?:\s*\[\w+\])?:/m;

function kindOf(test: TestResult): FailureKind {
  if (test.status === 'timeout') return 'timeout';
  const text = test.trace ?? test.message ?? '';
  if (/expect\(|toBe|toEqual|toThrow|Expected|AssertionError/.test(test.message ?? '')) return 'assertion';
  if (/ECONNREFUSED|ENOTFOUND|EAI_AGAIN|getaddrinfo|socket hang up/.test(text)) return 'infra';
  return 'exception';
}

async function locate(
  root: string,
  frames: ReturnType<typeof projectFrames>,
  cache: ScriptCache,
): Promise<Location[]> {
  const out: Location[] = [];
  for (const f of frames) {
    const parsed = await cache.parseFile(root, f.file);
    const symbol = parsed ? enclosingSymbol(parsed.tree, f.line, f.column) : undefined;
    out.push({ file: f.file, line: f.line, column: f.column, ...(symbol ? { symbol } : {}) });
  }
  return out;
}

/** Jest prints each failure twice (message and stack, in failureMessages and in the suite message): keep it once. */
function dedupe(text: string): string {
  const blocks = text.split(/\n{2,}/);
  return blocks.filter((b, i) => blocks.indexOf(b) === i).join('\n\n');
}

async function fromTest(test: TestResult, project: ProjectInfo, cache: ScriptCache): Promise<FailureInput> {
  const kind = kindOf(test);
  const frames = await locate(project.root, projectFrames(project.root, test.trace ?? ''), cache);
  const { file, fullName } = parseId(test.id);
  const own: Location = { file, ...(test.line ? { line: test.line } : {}) };
  // an assertion is located in the test; an exception where it was thrown (the innermost project frame)
  const location =
    kind === 'assertion' ? (frames.find((f) => f.file === file) ?? frames[0] ?? own) : (frames[0] ?? own);
  const type = ERROR_TYPE.exec(test.message ?? '')?.[1];
  const title =
    kind === 'timeout' ? `timeout in ${fullName}` : (test.message ?? 'failed').split('\n')[0]!.slice(0, 200);
  return {
    id: '',
    kind,
    title,
    tests: [test.id],
    location,
    frames: frames.filter((f) => f !== location),
    evidence: dedupe(test.trace ?? test.message ?? ''),
    fingerprint: fingerprint([
      kind,
      type,
      kind === 'assertion' || kind === 'timeout' ? test.id : normalize(test.message ?? ''),
      location.file,
      location.symbol,
    ]),
    repairable: kind !== 'infra',
    ...(kind === 'infra'
      ? { reason: 'the failure comes from the environment (network), not the code; no fixer was asked' }
      : {}),
    details: { ...(type ? { errorType: type } : {}), ...(test.details ?? {}), test: test.id },
  };
}

function fromSuite(d: Diagnostic): FailureInput {
  const kind: FailureKind =
    d.code === 'SyntaxError' ? 'syntax' : d.code === 'ModuleNotFound' ? 'import' : 'collection';
  return {
    id: '',
    kind,
    title: `${d.file} failed to run: ${d.message}`.slice(0, 200),
    tests: [],
    ...(d.file
      ? {
          location: {
            file: d.file,
            ...(d.line ? { line: d.line } : {}),
            ...(d.column ? { column: d.column } : {}),
          },
        }
      : {}),
    frames: [],
    evidence: dedupe(d.raw ?? d.message),
    fingerprint: fingerprint(['suite', kind, normalize(d.message), d.file]),
    repairable: true,
    diagnostics: [d],
    details: {},
  };
}

/** Groups Jest failures by root cause; a suite that fails to run is one failure. */
export async function analyzeJest(
  result: RunResult,
  project: ProjectInfo,
  cache: ScriptCache,
): Promise<FailureInput[]> {
  const groups = new Map<string, FailureInput>();
  const add = (f: FailureInput): void => {
    const g = groups.get(f.fingerprint);
    if (g)
      for (const t of f.tests)
        if (!g.tests.includes(t)) g.tests.push(t);
        else groups.set(f.fingerprint, f);
  };
  for (const d of result.diagnostics) if (d.source === 'jest-suite') add(fromSuite(d));
  for (const t of result.tests)
    if (t.status === 'failed' || t.status === 'timeout' || t.status === 'error' || t.status === 'crashed')
      add(await fromTest(t, project, cache));
  return [...groups.values()];
}
