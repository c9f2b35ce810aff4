#!/usr/bin/env node
// What an LLM endpoint that is down costs a run: `suture run` on N small pytest projects (one
// failing test each, so N failure groups, three attempts each) with the claude CLI, the
// Anthropic SDK or the OpenAI SDK pointed at a port nothing listens on (dead), a local endpoint
// answering 500 to every call (error), or one that reads each call and never answers (hang).
// Prints the attempts made, the requests that reached the endpoint, the time spent in fixer
// calls and the run's wall time. The fixers keep their defaults (retries, timeoutMs, circuit
// breaker) unless --timeout-ms or --max-wall-ms (the run's budget.maxWallMs) is given.
//   node bench/llm-spend.mjs [--fixer cli|api|openai]... [--endpoint dead|error|hang]...
//     [--groups N] [--timeout-ms MS] [--max-wall-ms MS] [--at COMMIT]
//   With the defaults a hung endpoint takes minutes per fixer (timeoutMs is 180 s).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { checkoutAt } from './lib/checkout-at.mjs';
import { deadEndpoint, startLlmEndpoint } from './lib/llm-wire.mjs';

const REPO = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const many = (name) => args.flatMap((a, i) => (args[i - 1] === name ? [a] : []));
const one = (name) => many(name)[0];
const at = one('--at');
const groups = Number(one('--groups') ?? 2);
const timeoutMs = one('--timeout-ms') ? Number(one('--timeout-ms')) : undefined;
const maxWallMs = one('--max-wall-ms') ? Number(one('--max-wall-ms')) : undefined;
const fixers = many('--fixer').length ? many('--fixer') : ['cli', 'api', 'openai'];
const endpoints = many('--endpoint').length ? many('--endpoint') : ['dead', 'error', 'hang'];

const require = createRequire(import.meta.url);
const claudePkg = require.resolve('@anthropic-ai/claude-code/package.json');
const CLAUDE = join(dirname(claudePkg), JSON.parse(await readFile(claudePkg, 'utf8')).bin.claude);
const timeout = timeoutMs ? { timeoutMs } : {};
const ENTRY = {
  cli: () => ['claude', { command: CLAUDE, model: 'claude-sonnet-4-6', ...timeout }],
  api: () => ['claude', { mode: 'api', model: 'claude-sonnet-4-6', ...timeout }],
  openai: (url) => ['openai', { model: 'gpt-4.1-mini', baseURL: `${url}/v1`, ...timeout }],
};
const PROJECT = {
  'shop/__init__.py': '',
  'shop/pricing.py': 'def bulk_discount(units):\n    if units > 10:\n        return 0.10\n    return 0.0\n',
  'tests/test_pricing.py':
    'from shop.pricing import bulk_discount\n\n\ndef test_discount_at_ten_units():\n    assert bulk_discount(10) == 0.10\n',
};

const root = at ? await checkoutAt(REPO, at) : REPO;

function run(argv, options) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function gate(fixer, endpointKind) {
  const endpoint =
    endpointKind === 'dead'
      ? { url: await deadEndpoint(), stats: { modelCalls: '-' }, close: async () => {} }
      : await startLlmEndpoint({ model: () => ({ text: 'unused' }), behaviour: endpointKind });
  await mkdir(join(root, '.tmp'), { recursive: true });
  const base = await mkdtemp(join(root, '.tmp', `bench-llm-spend-${fixer}-`));
  try {
    const names = Array.from({ length: groups }, (_, i) => `p${i + 1}`);
    for (const name of names)
      for (const [file, text] of Object.entries(PROJECT)) {
        await mkdir(dirname(join(base, name, file)), { recursive: true });
        await writeFile(join(base, name, file), text);
      }
    const config = {
      projects: names.map((name) => ({ name, root: name, runner: 'pytest' })),
      fixers: [ENTRY[fixer](endpoint.url)],
      heal: { flakyReruns: 0, regression: false },
      concurrency: 1,
      reporters: ['json'],
      ...(maxWallMs ? { budget: { maxWallMs } } : {}),
    };
    await writeFile(join(base, 'suture.config.json'), JSON.stringify(config, null, 2));
    const home = join(base, '.home');
    await mkdir(join(home, '.claude'), { recursive: true });
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(ANTHROPIC_|OPENAI_|CLAUDE_)/.test(k)),
    );
    Object.assign(env, {
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, '.claude'),
      ANTHROPIC_BASE_URL: endpoint.url,
      ANTHROPIC_API_KEY: 'sk-ant-bench-0000',
      OPENAI_API_KEY: 'sk-bench-0000',
      DISABLE_AUTOUPDATER: '1',
      CI: 'true',
    });
    const started = Date.now();
    const out = await run([join(root, 'packages/cli/dist/bin.js'), 'run', '--json'], { cwd: base, env });
    const wall = (Date.now() - started) / 1000;
    let report;
    try {
      report = JSON.parse(out.stdout);
    } catch {
      throw new Error(
        `suture run (${fixer}, ${endpointKind}) printed no report (exit ${out.code}):\n${out.stderr.slice(-3000)}`,
      );
    }
    const attempts = report.projects.flatMap((p) => p.failures.flatMap((f) => f.attempts));
    const asked = report.projects.filter((p) => p.failures.some((f) => f.attempts.length > 0)).length;
    const fixerSeconds = attempts.reduce((n, a) => n + (a.usage?.durationMs ?? a.durationMs ?? 0), 0) / 1000;
    return {
      fixer,
      endpoint: endpointKind,
      attempts: attempts.length,
      asked: `${asked}/${groups}`,
      requests: endpoint.stats.modelCalls,
      fixerSeconds: fixerSeconds.toFixed(1),
      wall: wall.toFixed(1),
      reason: (attempts[0]?.reason ?? '').replace(/^[^:]+\): /, '').slice(0, 100),
    };
  } finally {
    await endpoint.close();
    await rm(base, { recursive: true, force: true });
  }
}

const rows = [];
for (const fixer of fixers)
  for (const kind of endpoints) {
    process.stderr.write(`${at ? `at ${at}` : 'working tree'}: ${fixer} against a ${kind} endpoint...\n`);
    rows.push(await gate(fixer, kind));
  }
const settings = [
  timeoutMs ? `timeoutMs ${timeoutMs}` : 'default timeoutMs',
  maxWallMs ? `budget.maxWallMs ${maxWallMs}` : 'no budget',
];
console.log(
  `${at ? `at ${at}` : 'working tree'}: ${groups} failure groups, 3 attempts each, ${settings.join(', ')}`,
);
const cols = [
  ['fixer', 'fixer', 7],
  ['endpoint', 'endpoint', 9],
  ['groups asked', 'asked', 13],
  ['attempts', 'attempts', 9],
  ['requests', 'requests', 9],
  ['in fixer (s)', 'fixerSeconds', 13],
  ['wall (s)', 'wall', 9],
];
console.log(`${cols.map(([h, , w], i) => (i < 2 ? h.padEnd(w) : h.padStart(w))).join(' ')}  first reason`);
for (const r of rows)
  console.log(
    `${cols.map(([, k, w], i) => (i < 2 ? String(r[k]).padEnd(w) : String(r[k]).padStart(w))).join(' ')}  ${r.reason}`,
  );
console.log('requests: calls that reached the endpoint (none can for a dead one)');
