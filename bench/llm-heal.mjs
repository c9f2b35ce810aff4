#!/usr/bin/env node
// Tokens per heal and heal rate of the LLM fixers on the prompt bench's 22 seeded failures
// (bench/fixtures/prompts: real pytest, Jest and CMake + CTest + GoogleTest projects), through
// `suture run` with the real claude CLI, the Anthropic SDK and the OpenAI SDK against a local
// endpoint (bench/lib/llm-wire.mjs) whose scripted model (bench/lib/oracle-model.mjs) proposes
// the true fix only when the faulty lines reached it. Every other failure gets a wrong patch
// first, so half the heals take a follow-up with the history. Tokens are what the endpoint
// billed (4 characters a token, both prompt caches as documented); cost at Sonnet 4 and GPT-4.1
// mini prices.
//   node bench/llm-heal.mjs [--fixer NAME]... [--lang python|js|cpp]... [--at COMMIT]
//   fixers: cli (claude CLI, tools "none"), cli-read (claude CLI, tools "read", reading when the
//   code is missing), cli-read-always (reading the faulty file before every answer), api, openai.
//   --at COMMIT runs an earlier commit of suture, built outside the repository (bench/lib/checkout-at.mjs),
//   with the options it knew (its claude CLI had read tools and no "tools" option).
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { checkoutAt } from './lib/checkout-at.mjs';
import { startLlmEndpoint } from './lib/llm-wire.mjs';
import { oracleModel } from './lib/oracle-model.mjs';

const REPO = new URL('..', import.meta.url).pathname;
const FIXTURES = join(REPO, 'bench/fixtures/prompts');
const args = process.argv.slice(2);
const many = (name) => args.flatMap((a, i) => (args[i - 1] === name ? [a] : []));
const at = many('--at')[0];
const langs = many('--lang').length ? many('--lang') : ['python', 'js', 'cpp'];
const LANG = { python: 'python', js: 'javascript', cpp: 'cpp' };
const RUNNER = { python: 'pytest', js: 'jest', cpp: ['ctest', { parallel: 2 }] };

const require = createRequire(import.meta.url);
const claudePkg = require.resolve('@anthropic-ai/claude-code/package.json');
const CLAUDE = join(dirname(claudePkg), JSON.parse(await readFile(claudePkg, 'utf8')).bin.claude);
const SONNET = 'claude-sonnet-4-6';
const MINI = 'gpt-4.1-mini';
/** USD per million tokens: input, cache read, cache write, output. */
const PRICE = { anthropic: [3, 0.3, 3.75, 15], openai: [0.4, 0.1, 0, 1.6] };

const FIXERS = {
  cli: { api: 'anthropic', entry: (o) => ['claude', { command: CLAUDE, model: SONNET, ...o }] },
  'cli-read': {
    api: 'anthropic',
    reads: 'needed',
    tools: 'read',
    entry: (o) => ['claude', { command: CLAUDE, model: SONNET, ...o }],
  },
  'cli-read-always': {
    api: 'anthropic',
    reads: 'always',
    tools: 'read',
    entry: (o) => ['claude', { command: CLAUDE, model: SONNET, ...o }],
  },
  api: { api: 'anthropic', entry: () => ['claude', { mode: 'api', model: SONNET }] },
  openai: { api: 'openai', entry: (o, url) => ['openai', { model: MINI, baseURL: `${url}/v1` }] },
};
const chosen = many('--fixer').length ? many('--fixer') : at ? ['cli', 'api', 'openai'] : Object.keys(FIXERS);
for (const name of chosen)
  if (!FIXERS[name]) throw new Error(`--fixer ${name}: one of ${Object.keys(FIXERS)}`);

const truthFile = JSON.parse(await readFile(join(FIXTURES, 'truth.json'), 'utf8'));
const truth = langs.flatMap((l) => truthFile[LANG[l]]);
// every other seeded failure of each language gets a wrong patch first
const wrongFirst = new Set(
  langs.flatMap((l) => truthFile[LANG[l]].filter((_, i) => i % 2 === 1).map((t) => t.test)),
);

const root = at ? await checkoutAt(REPO, at) : REPO;
const label = at ? `at ${at}` : 'working tree';

function run(cmd, argv, options) {
  return new Promise((resolve) => {
    const child = spawn(cmd, argv, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** One `suture run` over the chosen projects with one fixer; the report and what the endpoint saw. */
async function gate(name) {
  const fixer = FIXERS[name];
  const endpoint = await startLlmEndpoint({ model: oracleModel({ truth, reads: fixer.reads, wrongFirst }) });
  await mkdir(join(root, '.tmp'), { recursive: true });
  const base = await mkdtemp(join(root, '.tmp', `bench-llm-heal-${name}-`));
  try {
    for (const l of langs) await cp(join(FIXTURES, l), join(base, l), { recursive: true });
    const home = join(base, '.home');
    await mkdir(join(home, '.claude'), { recursive: true });
    const config = {
      projects: langs.map((l) => ({ name: l, root: l, runner: RUNNER[l] })),
      fixers: [fixer.entry(fixer.tools ? { tools: fixer.tools } : {}, endpoint.url)],
      heal: { maxAttempts: 2, flakyReruns: 0, regression: false },
      reporters: ['json'],
    };
    await writeFile(join(base, 'suture.config.json'), JSON.stringify(config, null, 2));
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
    const bin = join(root, 'packages/cli/dist/bin.js');
    const out = await run(process.execPath, [bin, 'run', '--json', '--concurrency', '1'], { cwd: base, env });
    const seconds = (Date.now() - started) / 1000;
    let report;
    try {
      report = JSON.parse(out.stdout);
    } catch {
      throw new Error(
        `suture run (${name}) printed no report (exit ${out.code}):\n${out.stderr.slice(-3000)}`,
      );
    }
    return { name, report, stats: endpoint.stats, seconds };
  } finally {
    await endpoint.close();
    await rm(base, { recursive: true, force: true });
  }
}

const rows = [];
for (const name of chosen) {
  process.stderr.write(`${label}: ${name}...\n`);
  const { report, stats, seconds } = await gate(name);
  const failures = report.projects.flatMap((p) => p.failures);
  const healed = failures.filter((f) => f.outcome === 'healed').length;
  const u = stats.usage;
  const [pi, pr, pw, po] = PRICE[FIXERS[name].api];
  const cost = (u.input * pi + u.cacheRead * pr + u.cacheWrite * pw + u.output * po) / 1e6;
  const per = (n) => (healed ? Math.round(n / healed) : '-');
  rows.push({
    name,
    failures: failures.length,
    healed,
    calls: stats.modelCalls,
    recorded: report.totals.llmCalls,
    input: per(u.input),
    cacheRead: per(u.cacheRead),
    cacheWrite: per(u.cacheWrite),
    output: per(u.output),
    billed: per(u.input + u.cacheRead + u.cacheWrite),
    cost: healed ? (cost / healed).toFixed(4) : '-',
    seconds: seconds.toFixed(0),
  });
}

const cols = [
  ['fixer', 'name', 16],
  ['failures', 'failures', 9],
  ['healed', 'healed', 7],
  ['model calls', 'calls', 12],
  ['recorded', 'recorded', 9],
  ['input/heal', 'input', 11],
  ['cache rd/heal', 'cacheRead', 14],
  ['cache wr/heal', 'cacheWrite', 14],
  ['output/heal', 'output', 12],
  ['prompt tok/heal', 'billed', 16],
  ['USD/heal', 'cost', 9],
  ['s', 'seconds', 5],
];
console.log(`${label}: ${langs.join(', ')}; maxAttempts 2, every other failure answered wrongly first`);
console.log(cols.map(([h, , w], i) => (i === 0 ? h.padEnd(w) : h.padStart(w))).join(' '));
for (const r of rows)
  console.log(
    cols.map(([, k, w], i) => (i === 0 ? String(r[k]).padEnd(w) : String(r[k]).padStart(w))).join(' '),
  );
console.log(
  'model calls: requests that reached the model (a claude session title included); recorded: the calls report.json counts',
);
