import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Contract } from '../emit/contract.js';
import { loadHtml, loadCsv } from '../load/report.js';
import { runLoad, type LoadOptions, type LoadResult } from '../load/run.js';
import { loadTargets, readResults } from '../load/targets.js';
import type { Plan } from '../plan/plan.js';

/** The headers that carry the credential, as the generated conftest sends them. */
export function credentialHeaders(contract: Contract, token: string | undefined): Record<string, string> {
  const auth = contract.auth;
  if (!auth || !token) return {};
  if (auth.kind === 'apiKey')
    return auth.in === 'header' || !auth.in ? { [auth.name ?? 'X-API-Key']: token } : {};
  return { authorization: auth.kind === 'basic' ? `Basic ${token}` : `Bearer ${token}` };
}

/** The load test of what passed (results.xml), written as load_test.csv and load_test_report.html. */
export async function loadTest(input: {
  out: string;
  plan: Plan;
  contract: Contract;
  baseUrl: string;
  token: string | undefined;
  options: LoadOptions;
  stream: NodeJS.WritableStream;
  cwd: string;
}): Promise<LoadResult> {
  const results = await readResults(join(input.out, 'results.xml')).catch(() => new Map<string, boolean>());
  const targets = loadTargets(input.contract, results, input.options.endpoints);
  input.stream.write(
    `suture generate api: load test of ${targets.length} endpoint(s): ${targets.join(', ') || 'none passed'}\n`,
  );
  const ctx = {
    model: input.plan.model,
    resources: input.plan.resources,
    edges: input.plan.edges,
    seed: input.plan.seed,
  };
  const result = await runLoad(
    ctx,
    targets,
    input.baseUrl,
    credentialHeaders(input.contract, input.token),
    input.options,
  );
  await writeFile(join(input.out, 'load_test.csv'), loadCsv(result));
  await writeFile(join(input.out, 'load_test_report.html'), loadHtml(result, input.plan.model.title));
  for (const e of result.endpoints)
    input.stream.write(
      `  ${e.method} ${e.path}: ${e.requests} requests, ${e.rps} req/s, p50 ${e.p50Ms} ms, p90 ${e.p90Ms} ms, p99 ${e.p99Ms} ms, ${e.non2xx} non-2xx, ${e.errors} errors${e.failed.length ? ` FAILED: ${e.failed.join('; ')}` : ''}${e.closesConnections ? ' (the service closes each connection: serve it with keep-alive for figures that mean something)' : ''}\n`,
    );
  input.stream.write(
    `suture generate api: load test written to ${relative(input.cwd, join(input.out, 'load_test_report.html'))}\n`,
  );
  return result;
}
