import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import pytest from '../../../src/index.js';
import { cleanUp, copyOf, runIn, statusById } from '../kit/project.js';

const here = fileURLToPath(new URL('.', import.meta.url));
afterAll(cleanUp);

const ID = 'tests/test_report.py::test_checksum';
/** The fix: the right sum, reached after work that takes longer than the re-run floor of this runner. */
const FIXED = 'import time\n\n\ndef checksum(rows):\n    time.sleep(1.5)\n    return sum(rows)\n';

describe('the limit of a validation re-run', () => {
  it('does not stop a fix whose test takes longer than 5x the time it took to fail, nor longer than rerunTimeoutMs', async () => {
    const root = await copyOf(here, 'slow-once-fixed');
    // one runner instance, as in a gate: the validation re-run reads what the failing run measured
    const runner = pytest({ rerunTimeoutMs: 1000 });
    const failing = await runIn(runner, root);
    expect(statusById(failing)).toEqual({ [ID]: 'failed' });
    expect(failing.tests[0]!.durationMs ?? 0).toBeLessThan(200);
    await writeFile(join(root, 'app/report.py'), FIXED);
    const validation = await runIn(runner, root, { selection: [ID] });
    expect(validation.tests.find((t) => t.id === ID)).toMatchObject({ status: 'passed' });
    expect(await readFile(join(root, 'app/report.py'), 'utf8')).toBe(FIXED);
  });

  it('still holds a re-run of a test that passed before to 5x its measured time, at least rerunTimeoutMs', async () => {
    const root = await copyOf(here, 'slow-once-fixed');
    await writeFile(join(root, 'app/report.py'), 'def checksum(rows):\n    return sum(rows)\n');
    const runner = pytest({ rerunTimeoutMs: 1000 });
    expect(statusById(await runIn(runner, root))).toEqual({ [ID]: 'passed' });
    // now the code hangs: the re-run stops it at the floor, not at the 60 s of testTimeoutMs
    await writeFile(join(root, 'app/report.py'), FIXED.replace('1.5', '30'));
    const rerun = await runIn(runner, root, { selection: [ID] });
    expect(rerun.tests.find((t) => t.id === ID)).toMatchObject({ status: 'timeout' });
    expect(rerun.tests.find((t) => t.id === ID)!.message).toMatch(
      /the limit of this re-run \(5x its earlier duration/,
    );
  });
});
