import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REQUIRE_TOOLCHAINS_ENV } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import pytest from '../../../src/index.js';
import { cleanUp, copyOf, recordingLogger, runIn, statusById } from '../kit/project.js';

const here = fileURLToPath(new URL('.', import.meta.url));
/** pytest-xdist, installed apart from the machine's Python so that no other test loads it (.ci/run). */
const XDIST = fileURLToPath(new URL('../../../../../.tmp/python-xdist', import.meta.url));
const INSTALL = `python3 -m pip install --target ${XDIST} --no-deps pytest-xdist execnet`;

afterAll(cleanUp);

describe('a project that runs its tests in pytest-xdist workers', () => {
  it('says at once that the per-test limit does not reach the workers, names the option, and keeps it in the result', async (ctx) => {
    if (!existsSync(`${XDIST}/xdist`)) {
      if (process.env[REQUIRE_TOOLCHAINS_ENV] === '1')
        throw new Error(
          `pytest-xdist is not installed (${INSTALL}); ${REQUIRE_TOOLCHAINS_ENV}=1 requires it`,
        );
      ctx.skip(`pytest-xdist is not installed (${INSTALL})`);
    }
    const root = await copyOf(here, 'workers');
    const env = { PYTHONPATH: XDIST };
    const logger = recordingLogger();
    const result = await runIn(pytest({ env, testTimeoutMs: 1000 }), root, { logger });
    expect(statusById(result)).toEqual({
      'tests/test_quick.py::test_one': 'passed',
      'tests/test_quick.py::test_two': 'passed',
    });
    // the workers ran them: xdist's own header says so
    expect(result.outputTail).toMatch(/created: 2\/2 workers/);
    const said = logger.warnings.filter((w) => w.startsWith('pytest-xdist runs these tests'));
    expect(said).toEqual([
      'pytest-xdist runs these tests in worker processes (-n 2), which suture\'s per-test limit does not reach: a test that hangs there runs until the run\'s limit ("timeoutMs", 600000 ms now). Give the project a limit of its own in the workers (pytest-timeout\'s --timeout), or run suture\'s runs without workers (the runner option "args": ["-n", "0"])',
    ]);
    expect(result.diagnostics).toContainEqual(
      expect.objectContaining({ source: 'pytest-xdist', severity: 'warning', message: said[0] }),
    );

    // without workers the limit holds, and nothing is said
    const quiet = recordingLogger();
    const serial = await runIn(pytest({ env, testTimeoutMs: 1000, args: ['-n', '0'] }), root, {
      logger: quiet,
    });
    expect(serial.status).toBe('passed');
    expect(quiet.warnings).toEqual([]);
    expect(serial.diagnostics).toEqual([]);
  });
});
