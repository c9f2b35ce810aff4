import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processGone } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import pytest from '../../../src/index.js';
import { cleanUp, copyOf, runIn, statusById, tempDir } from '../kit/project.js';

const here = fileURLToPath(new URL('.', import.meta.url));

afterAll(cleanUp);

describe('a helper process left running by a passing test', () => {
  it('does not hold the run to its limit through the stdout it keeps open, and is stopped', async () => {
    const root = await copyOf(here, 'leftover');
    const pidFile = join(await tempDir('leftover-pid'), 'helper');
    const result = await runIn(pytest({ env: { HELPER_PID_FILE: pidFile } }), root, {
      // the helper sleeps 600 s: a run that waited for its pipe to close would end as a timeout
      timeoutMs: 240_000,
    });
    const [pid, stdout] = (await readFile(pidFile, 'utf8')).split(' ');
    // the scenario is real: the helper's stdout is the pipe the runner reads pytest from
    expect(stdout).toMatch(/^(socket|pipe):/);
    expect(result.status).toBe('passed');
    expect(result.exitCode).toBe(0);
    expect(statusById(result)).toEqual({
      'tests/test_leftover.py::test_starts_a_server_and_leaves_it_running': 'passed',
      'tests/test_leftover.py::test_after': 'passed',
    });
    expect(await processGone(Number(pid), 10_000)).toBe(true);
  }, 300_000);
});
