#!/usr/bin/env node
// The prompts an LLM fixer gets for fixed failures in Python, JavaScript and C++: three small
// projects under bench/fixtures/prompts with seeded bugs, run through the real gate (real pytest,
// Jest, CMake + CTest + GoogleTest); each fix request the engine builds is rendered as the LLM
// fixers render it. Prints the characters of each prompt (system + user), of its evidence and of
// its source, and whether the function that holds the bug (bench/fixtures/prompts/truth.json) is
// in it: its first line and the faulty line. Goal: median <= 8,000 characters, function present
// in >= 95 % of the prompts.
//   node bench/prompts.mjs [--dump DIR] [--token-budget N]
//   (--dump writes each prompt to DIR; --token-budget overrides heal.tokenBudget)
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HealConfigSchema } from '../packages/core/dist/index.js';
import { runGate } from '../packages/core/dist/internal.js';
import { loadPromptTemplates, renderFixPrompt } from '../packages/core/dist/llm/index.js';
import { silentLogger } from '../packages/core/dist/testing/index.js';
import pytest from '../packages/runner-pytest/dist/index.js';
import ctest from '../packages/runner-ctest/dist/index.js';
import jest from '../packages/runner-jest/dist/index.js';

const REPO = new URL('..', import.meta.url).pathname;
const FIXTURES = join(REPO, 'bench/fixtures/prompts');
const truth = JSON.parse(await readFile(join(FIXTURES, 'truth.json'), 'utf8'));
const flag = (name) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const dumpAt = flag('--dump');
const tokenBudget = flag('--token-budget') ? Number(flag('--token-budget')) : undefined;

const projects = [
  { lang: 'python', dir: 'python', runner: () => pytest() },
  { lang: 'javascript', dir: 'js', runner: () => jest() },
  { lang: 'cpp', dir: 'cpp', runner: () => ctest({ parallel: 2 }) },
];

/** A fixer that keeps each request it is sent and gives up, so each group is asked once. */
function capturing(requests) {
  return {
    name: 'bench-capture',
    apiVersion: 1,
    async propose(request) {
      requests.push(request);
      return { verdict: 'unfixable', diagnosis: 'captured for the prompt bench' };
    },
  };
}

const templates = loadPromptTemplates();
const answer = 'Answer by calling the propose_fix tool with the proposal.';
const rows = [];
await mkdir(join(REPO, '.tmp'), { recursive: true });
for (const p of projects) {
  const base = await mkdtemp(join(REPO, '.tmp', `bench-prompts-${p.dir}-`));
  const root = join(base, p.dir);
  await cp(join(FIXTURES, p.dir), root, { recursive: true });
  const requests = [];
  try {
    await runGate({
      root: base,
      outputDir: join(base, '.suture/runs'),
      mode: 'check',
      projects: [
        {
          name: p.dir,
          root,
          runner: p.runner(),
          analyzer: p.runner().analyzer(),
          timeoutMs: 300_000,
          heal: HealConfigSchema.parse({
            flakyReruns: 0,
            regression: false,
            maxAttempts: 1,
            ...(tokenBudget ? { tokenBudget } : {}),
          }),
        },
      ],
      fixers: [capturing(requests)],
      reporters: [],
      concurrency: 1,
      logger: silentLogger,
    });
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  for (const request of requests) {
    const prompt = renderFixPrompt(request, { templates, answer, readsFiles: false });
    const text = `${prompt.system}\n\n${prompt.user}`;
    const tests = request.failure.tests.join(' ');
    const expected = truth[p.lang].filter((t) => tests.includes(t.test));
    const present =
      expected.length > 0 && expected.every((t) => text.includes(t.def) && text.includes(t.marker));
    const sources = request.sources.reduce((n, s) => n + s.text.length, 0);
    rows.push({
      lang: p.lang,
      failure: request.failure.title.slice(0, 60),
      truth: expected.map((t) => t.function).join(',') || '-',
      chars: text.length,
      evidence: request.failure.evidence.length,
      sources,
      present,
    });
    if (dumpAt) {
      await mkdir(dumpAt, { recursive: true });
      await writeFile(join(dumpAt, `${p.dir}-${rows.length}.md`), text);
    }
  }
}

const pad = (s, n) => String(s).padEnd(n);
const num = (n, w = 7) => String(n).padStart(w);
console.log(
  `${pad('language', 11)}${pad('failure', 62)}${pad('function', 24)}${num('chars')}${num('evid.')}${num('source')}  present`,
);
for (const r of rows)
  console.log(
    `${pad(r.lang, 11)}${pad(r.failure, 62)}${pad(r.truth, 24)}${num(r.chars)}${num(r.evidence)}${num(r.sources)}  ${r.present ? 'yes' : 'NO'}`,
  );
const sorted = rows.map((r) => r.chars).sort((a, b) => a - b);
const median = sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)];
const present = rows.filter((r) => r.present).length;
const expected = Object.values(truth).reduce((n, list) => n + list.length, 0);
console.log(`\nprompts: ${rows.length} (failures seeded: ${expected})`);
for (const lang of projects.map((p) => p.lang)) {
  const mine = rows
    .filter((r) => r.lang === lang)
    .map((r) => r.chars)
    .sort((a, b) => a - b);
  const m = mine.length === 0 ? 0 : mine[Math.floor((mine.length - 1) / 2)];
  console.log(`  ${pad(lang, 11)} ${mine.length} prompts, median ${m} characters`);
}
console.log(`characters per prompt: median ${median}, max ${sorted.at(-1) ?? 0} (goal: median <= 8,000)`);
console.log(
  `function present: ${present}/${rows.length} (${rows.length ? ((present / rows.length) * 100).toFixed(1) : 0} %, goal >= 95 %)`,
);
