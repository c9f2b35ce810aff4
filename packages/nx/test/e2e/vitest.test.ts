import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nx, nxWorkspace } from './workspace.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const project = (name: string): string => JSON.stringify({ name });

/** ui (Vitest: a vitest.config.ts, vitest in its package.json) beside web (Jest). */
const FILES = {
  'apps/ui/project.json': project('ui'),
  'apps/ui/package.json': JSON.stringify({
    name: 'ui',
    private: true,
    type: 'module',
    devDependencies: { vitest: '*' },
  }),
  'apps/ui/vitest.config.ts':
    "import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ test: {} });\n",
  'apps/ui/src/sum.ts': 'export const sum = (a: number, b: number): number => a + b;\n',
  'apps/ui/__tests__/sum.test.ts':
    "import { describe, expect, it } from 'vitest';\nimport { sum } from '../src/sum';\n\ndescribe('sum', () => {\n  it('adds', () => {\n    expect(sum(2, 3)).toBe(5);\n  });\n\n  it('adds a negative', () => {\n    expect(sum(2, -3)).toBe(-1);\n  });\n});\n",
  'apps/web/project.json': project('web'),
  'apps/web/package.json': JSON.stringify({ name: 'web', private: true }),
  'apps/web/__tests__/math.test.js': "test('adds', () => {\n  expect(1 + 1).toBe(2);\n});\n",
};

const CONFIG = {
  projects: [
    { name: 'ui', root: 'apps/ui', runner: '@suture/runner-vitest' },
    { name: 'web', root: 'apps/web', runner: 'jest' },
  ],
  fixers: [],
};

interface Shown {
  targets: Record<
    string,
    { command?: string; options?: { command?: string }; metadata?: { technologies?: string[] } }
  >;
}

interface TaskReport {
  exitCode: number;
  totals: { tests: number; failed: number };
  projects: Array<{ name: string; runner: string; status: string }>;
}

describe('@suture/nx with a Vitest project in a real Nx workspace', () => {
  it('infers its suture target with the Vitest runner, never Jest, and the task gates it with Vitest', async () => {
    const dir = await nxWorkspace(FILES, CONFIG);
    dirs.push(dir);
    const shown = (name: string): Shown =>
      JSON.parse(nx(dir, ['show', 'project', name, '--json']).output) as Shown;

    const ui = shown('ui').targets.suture!;
    expect(ui.metadata?.technologies).toEqual(['suture', 'vitest']);
    expect(ui.options?.command ?? ui.command).toContain('suture run ui --out .suture/nx/ui');
    // the Jest project beside it keeps its own runner; neither target holds the other's project
    const web = shown('web').targets.suture!;
    expect(web.metadata?.technologies).toEqual(['suture', 'jest']);
    expect(web.options?.command ?? web.command).not.toContain(' ui ');

    const run = nx(dir, ['run', 'ui:suture']);
    expect(run.code, run.output).toBe(0);
    expect(run.output).not.toContain('web:suture');
    const report = JSON.parse(await readFile(join(dir, '.suture/nx/ui/report.json'), 'utf8')) as TaskReport;
    expect(report.projects).toEqual([
      expect.objectContaining({ name: 'ui', runner: '@suture/runner-vitest', status: 'completed' }),
    ]);
    expect(report).toMatchObject({ exitCode: 0, totals: { tests: 2, failed: 0 } });
    // Vitest's ids (`describe > test`), as only the Vitest runner names them
    expect(await readFile(join(dir, '.suture/nx/ui/results.xml'), 'utf8')).toContain(
      'sum &gt; adds a negative',
    );
  });
});
