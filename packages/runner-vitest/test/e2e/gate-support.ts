import { join } from 'node:path';
import { HealConfigSchema, type Fixer, type GateMode, type GateReport, type HealConfig } from '@suture/core';
import { runGate } from '@suture/core/internal';
import { silentLogger } from '@suture/core/testing';
import vitest from '../../src/index.js';

export interface VitestGate {
  root: string;
  mode?: GateMode;
  fixers: Fixer[];
  heal?: Partial<HealConfig>;
}

/** The gate over one real Vitest project, the project's folder as the repository root. */
export function gate(run: VitestGate): Promise<GateReport> {
  return runGate({
    root: run.root,
    outputDir: join(run.root, '.suture/runs'),
    mode: run.mode ?? 'check',
    projects: [
      {
        name: 'web',
        root: run.root,
        runner: vitest(),
        analyzer: vitest().analyzer!(),
        timeoutMs: 120_000,
        heal: HealConfigSchema.parse({ flakyReruns: 0, ...run.heal }),
      },
    ],
    fixers: run.fixers,
    reporters: [],
    concurrency: 1,
    logger: silentLogger,
  });
}
