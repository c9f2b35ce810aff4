import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { GateReportSchema, type GateReport } from '@suture/core';
import { artifactsIn } from '../artifacts.js';
import type { RunSummary } from '../shared/live.js';

/** A run id as the gate makes them (a timestamp and a suffix): never a path. */
const RUN_ID = /^[\w.-]+$/;

export function isRunId(id: string): boolean {
  return RUN_ID.test(id) && id !== '.' && id !== '..';
}

/** A run folder's report.json, parsed; undefined when it is missing, unreadable or of another schema. */
export async function readRunReport(runsDir: string, runId: string): Promise<GateReport | undefined> {
  if (!isRunId(runId)) return undefined;
  const text = await readFile(join(runsDir, runId, 'report.json'), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = GateReportSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function summarize(report: GateReport, artifacts: string[]): RunSummary {
  const t = report.totals;
  return {
    runId: report.runId,
    startedAt: report.startedAt,
    durationMs: report.durationMs,
    mode: report.mode,
    exitCode: report.exitCode,
    ...(report.cancelled ? { cancelled: true } : {}),
    tests: t.tests,
    passed: t.passed,
    failed: t.failed,
    healed: t.healed,
    stillFailing: t.stillFailing,
    bugs: t.bugs,
    flaky: t.flaky,
    llmCalls: t.llmCalls,
    costUsd: t.costUsd,
    projects: report.projects.map((p) => ({
      name: p.name,
      status: p.status,
      tests: p.rounds.find((r) => r.kind === 'initial')?.tests.length ?? p.totals.tests,
    })),
    artifacts,
  };
}

/**
 * Summaries of the earlier runs, newest first. A report.json is read again only when it changed:
 * `suture ui` lists the runs on every page load and a report of a big suite is megabytes.
 */
export class RunIndex {
  private readonly cache = new Map<string, { key: string; summary: RunSummary }>();

  constructor(
    readonly runsDir: string,
    private readonly limit = 100,
  ) {}

  /** Run folder names, newest first (run ids start with their time). */
  private async ids(): Promise<string[]> {
    return (await readdir(this.runsDir).catch(() => [] as string[])).filter(isRunId).sort().reverse();
  }

  async list(): Promise<RunSummary[]> {
    const out: RunSummary[] = [];
    for (const id of await this.ids()) {
      if (out.length >= this.limit) break;
      const summary = await this.summary(id);
      if (summary) out.push(summary);
    }
    return out;
  }

  private async summary(id: string): Promise<RunSummary | undefined> {
    const info = await stat(join(this.runsDir, id, 'report.json')).catch(() => undefined);
    if (!info) return undefined;
    const key = `${info.mtimeMs}:${info.size}`;
    const hit = this.cache.get(id);
    if (hit?.key === key) return hit.summary;
    const report = await readRunReport(this.runsDir, id);
    if (!report) return undefined;
    const summary = summarize(report, await artifactsIn(join(this.runsDir, id)));
    this.cache.set(id, { key, summary });
    return summary;
  }

  /**
   * Tests per project in the newest earlier run that gated it: the live page's denominators. Only
   * the newest few runs are read, so a big runs folder does not hold up the run's start.
   */
  async expectedTests(projects: readonly string[], except?: string): Promise<Record<string, number>> {
    const expected: Record<string, number> = {};
    const ids = (await this.ids()).filter((id) => id !== except).slice(0, 5);
    for (const id of ids) {
      const run = await this.summary(id);
      for (const p of run?.projects ?? [])
        if (projects.includes(p.name) && expected[p.name] === undefined && p.tests > 0)
          expected[p.name] = p.tests;
      if (projects.every((name) => expected[name] !== undefined)) break;
    }
    return expected;
  }
}
