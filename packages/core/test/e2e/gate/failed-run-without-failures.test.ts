import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { API_VERSION, type Runner } from '../../../src/api/plugin.js';
import { gate, project, sandbox, type Sandbox } from './support.js';

const boxes: Sandbox[] = [];
afterEach(async () => {
  for (const b of boxes.splice(0)) await rm(b.root, { recursive: true, force: true });
});

describe('a run the runner calls failed', () => {
  it('is not green when no failing test explains it (a report cut short hid the failure)', async () => {
    const b = await sandbox();
    boxes.push(b);
    const runner: Runner = {
      name: 'cut-short',
      apiVersion: API_VERSION,
      language: 'javascript',
      supportsSelection: false,
      run: async () => ({
        status: 'failed',
        exitCode: 1,
        command: 'pytest -q',
        durationMs: 1,
        tests: [{ id: 't.py::a', name: 'a', status: 'passed' }],
      }),
    };
    const report = await gate(b, [], { projects: [project(b.root, { runner })] });
    expect(report.projects[0]!.status).toBe('failed');
    expect(report.projects[0]!.error).toBe(
      'cut-short reported a failed run (exit code 1) but no failing test; see the output of pytest -q',
    );
    expect(report.exitCode).toBe(1);
  });
});
