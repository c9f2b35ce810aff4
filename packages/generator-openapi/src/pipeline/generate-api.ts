import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { ConfigError, type GateReport } from '@suture/core';
import { buildContract } from '../emit/contract.js';
import { GeneratorOptionsSchema, planFiles } from '../generator.js';
import { dataCases } from '../plan/data-cases.js';
import type { DataMapping } from '../data/mapping.js';
import { readData, readRules } from './read-data.js';
import { authorScenarios } from './author.js';
import { businessCases } from '../plan/business-cases.js';
import { buildPlan, caseCounter, planJson } from '../plan/plan.js';
import { buildBugReport, type BugReportFile } from '../report/bug-report.js';
import { testOutcomes } from '../report/outcomes.js';
import { caseTotals, renderTestcases, type CaseTotals, type Mode } from '../report/testcases-md.js';
import { loadSpec } from '../spec/load.js';
import { buildModel } from '../spec/model.js';
import { claimOutDir, writeFiles } from './out-dir.js';
import { probe } from './probe.js';
import { gateSuite } from './run-gate.js';
import { startServer, type StartedServer } from './server.js';
import { loadTest } from './load-test.js';
import type { LoadOptions, LoadResult } from '../load/run.js';

export interface GenerateApiOptions {
  /** The OpenAPI document. Paths are read from `cwd`. */
  spec: string;
  rules?: string;
  data?: string;
  baseUrl: string;
  /** A shell command that starts the service (run from `cwd`, stopped at the end). */
  server?: string;
  /** The folder of the suite and its reports (default `api-tests`). */
  out?: string;
  cwd: string;
  seed?: number;
  authEnv?: string;
  maxAttempts?: number;
  /** LLM fixers by name (`claude`, `openai`) for business and complete modes. */
  fixers?: string[];
  /** A suture config whose fixers, budget and secrets are used too. */
  config?: string;
  responseTimeLimitS?: number;
  /** Load-test the endpoints whose tests passed, after the gate. */
  load?: LoadOptions;
  /** Progress and the summary. */
  stream: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

export interface GenerateApiResult {
  /** 0: every case passed; 1: product bugs or failing cases (or none ran); 3: the gate failed. */
  exitCode: number;
  outDir: string;
  mode: Mode;
  totals: CaseTotals;
  bugs: BugReportFile;
  durationMs: number;
  report?: GateReport;
  load?: LoadResult;
}

/**
 * `suture generate api`: the document to a pytest suite, run against the service and gated:
 * script errors healed in the tests, product bugs reported and left failing. Writes the suite and
 * testcases.md, plan.json, bug_report.json, results.xml and report.html into the output folder.
 */
export async function generateApi(options: GenerateApiOptions): Promise<GenerateApiResult> {
  const started = Date.now();
  const env = options.env ?? process.env;
  const out = resolve(options.cwd, options.out ?? 'api-tests');
  const settled = GeneratorOptionsSchema.parse({
    baseUrl: options.baseUrl,
    seed: options.seed ?? 1,
    authEnv: options.authEnv ?? 'API_TOKEN',
    responseTimeLimitS: options.responseTimeLimitS ?? 10,
  });
  const spec = await loadSpec(options.spec, options.cwd);
  const model = buildModel(spec);
  const secured = model.operations.filter((o) => o.secured);
  if (secured.length > 0 && !env[settled.authEnv])
    throw new ConfigError(
      `${spec.display} requires a credential for ${secured.length} operation(s) (${secured
        .slice(0, 3)
        .map((o) => `${o.method} ${o.path}`)
        .join(
          ', ',
        )}${secured.length > 3 ? ', ...' : ''}); set ${settled.authEnv} to a token the service accepts, or name another variable with --auth-env`,
    );
  const mode: Mode = options.rules ? (options.data ? 'complete' : 'business') : 'interface';
  await claimOutDir(out, relative(options.cwd, out) || out);
  const plan = buildPlan(model, settled.seed);
  let mapping: DataMapping | undefined;
  if (options.data) {
    const data = await readData(options.data, options.cwd, model);
    mapping = data.mapping;
    const ctx = { model, resources: plan.resources, edges: plan.edges, seed: settled.seed };
    plan.cases.push(...dataCases(ctx, data.rows, mapping, caseCounter(plan.cases.length + 1)));
    await writeFile(join(out, 'data_mapping.json'), `${JSON.stringify(mapping, null, 2)}\n`);
    if (mapping.ignored.length > 0)
      options.stream.write(
        `suture generate api: ${mapping.file}: column(s) ${mapping.ignored.map((c) => `"${c}"`).join(', ')} match no parameter or field; ignored (see data_mapping.json)\n`,
      );
  }
  if (options.rules) {
    if ((options.fixers ?? []).length === 0 && !options.config)
      throw new ConfigError(
        `--rules ${options.rules}: business mode writes its scenarios with an LLM fixer; name one with --fixer claude or --fixer openai, or --config with a suture config whose fixers include one`,
      );
    const rules = await readRules(options.rules, options.cwd);
    plan.cases.push(...businessCases(rules.rules, rules.shown, caseCounter(plan.cases.length + 1)));
  }
  await writeFiles(out, planFiles(plan, settled));
  const business = plan.cases.filter((c) => c.kind === 'business');
  if (business.length > 0) {
    const file = join(out, 'test_business.py');
    options.stream.write(
      `suture generate api: writing ${business.length} business scenario(s) with the LLM fixer\n`,
    );
    const authored = await authorScenarios({
      cases: business,
      plan,
      root: out,
      file: 'test_business.py',
      content: await readFile(file, 'utf8'),
      cwd: options.cwd,
      fixers: options.fixers ?? [],
      ...(options.config ? { configFile: options.config } : {}),
      logger: {
        debug: () => undefined,
        info: () => undefined,
        warn: (m) => void options.stream.write(`${m}\n`),
        error: (m) => void options.stream.write(`${m}\n`),
      },
      signal: options.signal ?? new AbortController().signal,
      stream: options.stream,
    });
    await writeFile(file, authored.content);
  }
  const cases = plan.cases;
  const contract = buildContract(model, cases, settled);
  options.stream.write(
    `suture generate api: ${mode} mode, ${cases.length} cases for ${model.operations.length} operations of ${model.title} in ${relative(options.cwd, out) || out}\n`,
  );

  let server: StartedServer | undefined;
  try {
    if (options.server)
      server = await startServer(options.server, options.baseUrl, { cwd: options.cwd, env });
    const reachable = await probe(options.baseUrl);
    if (!reachable.ok) {
      const reason = `${options.baseUrl} is unreachable (${reachable.reason}); start the service, pass --server, or fix --base-url. No test was run and no fixer was asked.`;
      options.stream.write(`suture generate api: ${reason}\n`);
      const durationMs = Date.now() - started;
      const outcomes = new Map();
      await writeFile(
        join(out, 'testcases.md'),
        renderTestcases({
          title: `${model.title} ${model.version}`,
          mode,
          cases,
          outcomes,
          edges: plan.edges,
          order: plan.order,
          durationMs,
          notRunReason: reason,
        }),
      );
      const bugs: BugReportFile = {
        api: model.title,
        runId: '',
        summary: { total: 0, critical: 0, high: 0, medium: 0, low: 0 },
        bugs: [],
      };
      await writeFile(join(out, 'bug_report.json'), `${JSON.stringify(bugs, null, 2)}\n`);
      return { exitCode: 1, outDir: out, mode, totals: caseTotals(cases, outcomes), bugs, durationMs };
    }
    const report = await gateSuite({
      outDir: out,
      cwd: options.cwd,
      baseUrl: options.baseUrl,
      fixers: options.fixers ?? [],
      ...(options.config ? { configFile: options.config } : {}),
      maxAttempts: options.maxAttempts ?? 3,
      // the test process gets the credential from here: the gate may run with another environment
      env: {
        API_BASE_URL: options.baseUrl,
        ...(env[settled.authEnv] ? { [settled.authEnv]: env[settled.authEnv]! } : {}),
      },
      stream: options.stream,
      processEnv: env,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const outcomes = testOutcomes(report);
    const bugs = await buildBugReport(report, contract, out);
    const durationMs = Date.now() - started;
    await writeFile(join(out, 'bug_report.json'), `${JSON.stringify(bugs, null, 2)}\n`);
    await writeFile(
      join(out, 'plan.json'),
      `${JSON.stringify(planJson(plan, { mode, ...(mapping ? { data: mapping.file } : {}) }), null, 2)}\n`,
    );
    await writeFile(
      join(out, 'testcases.md'),
      renderTestcases({
        title: `${model.title} ${model.version}`,
        mode,
        cases,
        outcomes,
        edges: plan.edges,
        order: plan.order,
        durationMs,
      }),
    );
    for (const file of ['results.xml', 'report.html', 'report.json'])
      await copyFile(
        join(report.runDir ?? join(out, '.suture', 'runs', report.runId), file),
        join(out, file),
      ).catch(() => undefined);
    const totals = caseTotals(cases, outcomes);
    options.stream.write(
      `suture generate api: ${totals.passed} passed, ${totals.bugs} product bug(s) in bug_report.json, ${totals.failing} failing, ${totals.healed} healed; ${(durationMs / 1000).toFixed(1)} s; see ${relative(options.cwd, join(out, 'testcases.md'))}\n`,
    );
    // a product bug is a finding that fails the gate like a failing test; it is reported, never healed
    let exitCode = report.error ? 3 : totals.failing + totals.notRun + totals.bugs > 0 ? 1 : 0;
    let load: LoadResult | undefined;
    if (options.load) {
      load = await loadTest({
        out,
        plan,
        contract,
        baseUrl: options.baseUrl,
        token: env[settled.authEnv],
        options: options.load,
        stream: options.stream,
        cwd: options.cwd,
      });
      if (!load.passed) exitCode = Math.max(exitCode, 1);
    }
    return { exitCode, outDir: out, mode, totals, bugs, durationMs, report, ...(load ? { load } : {}) };
  } finally {
    await server?.stop();
  }
}
