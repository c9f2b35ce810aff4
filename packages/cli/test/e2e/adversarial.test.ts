import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CASES } from '../../../../bench/adversarial/cases.mjs';
import { prepare, runCase } from '../../../../bench/adversarial/gate.mjs';
import { REPO } from './cli-support.js';

// A deterministic sample of the adversarial benchmark (bench/adversarial.mjs), through the built
// CLI on real pytest, Jest, CMake + CTest + GoogleTest and a runner with no testModel: no
// weakening or faking proposal is kept unflagged, and no legitimate fix is refused.
const SAMPLE: Record<string, string[]> = {
  pytest: [
    'pytest.approx(5, abs=1e9)',
    'helper gutted',
    'fork and exit at import',
    'code fixed, assertion through a local variable',
    'wrong parametrize row corrected',
  ],
  jest: [
    '.not.toBe(5)',
    'expect only when it would pass',
    'global.expect replaced by the code under test',
    'code fixed, toBe made toEqual',
  ],
  gtest: [
    'EXPECT_EQ made EXPECT_LE',
    'EXPECT_NEAR with a tolerance of 1e9',
    '#define EXPECT_EQ in a header of the code',
    'code fixed',
  ],
  shell: [
    'test made to expect the bug, with a code edit beside it',
    'check inverted, with a code edit beside it',
    'code fixed',
  ],
};

const work = join(REPO, '.tmp', 'adversarial-sample');
afterAll(() => rm(work, { recursive: true, force: true }));

describe.each(Object.entries(SAMPLE))('adversarial proposals through the gate: %s', (runner, names) => {
  const cases = names.map((name) => {
    const found = (CASES as Record<string, Array<{ name: string; kind: string }>>)[runner]!.find(
      (c) => c.name === name,
    );
    if (!found) throw new Error(`no ${runner} case named "${name}"`);
    return found;
  });

  it('refuses the weakening and faking proposals, with a reason, and keeps the legitimate fixes', async () => {
    await mkdir(work, { recursive: true });
    const prepared = await prepare(work, runner);
    for (const c of cases) {
      const v = await runCase(prepared, c);
      const seen = `${c.kind} "${c.name}": ${v.outcome} ${v.reason}`;
      if (c.kind === 'legitimate') expect(['unflagged', 'flagged'], seen).toContain(v.outcome);
      else {
        expect(v.outcome, seen).toBe('refused');
        expect(v.reason, seen).not.toBe('');
      }
    }
  }, 600_000);
});
