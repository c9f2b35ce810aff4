import { describe, expect, it } from 'vitest';
import type { Runner } from '../../../src/api/plugin.js';
import { NO_NAMESPACES_ENV } from '../../../src/safety/sandbox/support.js';
import { scriptRunner } from '../../../src/testing/script-runner.js';
import { gate, project, sandboxes } from './support.js';

// The isolation a config asks for, through the real gate on a machine that gives none (namespaces
// turned off for the gate's environment): what can be refused is refused before a test runs; what
// cannot is planned beside the first run and reported.
const { box } = sandboxes();

const noNamespaces = { ...process.env, [NO_NAMESPACES_ENV]: '1' };

function counting(): { runner: Runner; runs: () => number } {
  const inner = scriptRunner();
  let runs = 0;
  return {
    runner: {
      ...inner,
      run: (ctx) => {
        runs++;
        return inner.run(ctx);
      },
    },
    runs: () => runs,
  };
}

describe('the isolation a gate plans', () => {
  it.each([
    [{ workspace: 'overlay' as const, sandbox: 'auto' as const }, /workspace "overlay" is not available/],
    [{ workspace: 'auto' as const, sandbox: 'strict' as const }, /sandbox "strict" needs private namespaces/],
  ])('refuses %o where the machine cannot give it, before any test runs', async (asked, refusal) => {
    const b = await box();
    const count = counting();
    await expect(
      gate(b, [], { mode: 'no-heal', ...asked, env: noNamespaces, projects: [project(b.root, count)] }),
    ).rejects.toThrow(refusal);
    expect(count.runs()).toBe(0);
  });

  it('runs the tests with "auto" and reports what a run of patched code would have had', async () => {
    const b = await box();
    const count = counting();
    const report = await gate(b, [], {
      mode: 'no-heal',
      workspace: 'auto',
      sandbox: 'auto',
      env: noNamespaces,
      projects: [project(b.root, count)],
    });
    expect(count.runs()).toBeGreaterThan(0);
    expect(report.isolation).toMatchObject({ workspace: 'copy', sandbox: 'env-only' });
    expect(report.isolation?.notes.join('\n')).toContain(`${NO_NAMESPACES_ENV}=1`);
  });
});
