import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestResult } from '@suture/core';
import { afterAll, describe, expect, it } from 'vitest';
import pytest from '../../../src/index.js';
import { cleanUp, copyOf, runIn } from '../kit/project.js';

const here = fileURLToPath(new URL('.', import.meta.url));

afterAll(cleanUp);

describe('live results', () => {
  it('hands each test to onTestResult as it finishes, while the tests after it still run', async () => {
    const root = await copyOf(here, 'sleepy');
    const streamed: TestResult[] = [];
    // The fixture's last test waits for this file: it passes only if a result arrived mid-run.
    const onTestResult = (test: TestResult): void => {
      if (streamed.length === 0) writeFileSync(join(root, 'first-result-seen'), test.id);
      streamed.push({ ...test });
    };
    const result = await runIn(pytest(), root, { onTestResult });
    expect(result.status).toBe('passed');
    expect(streamed.map((t) => [t.id, t.status])).toEqual([
      ['tests/test_sleepy.py::test_sleeps[0]', 'passed'],
      ['tests/test_sleepy.py::test_sleeps[1]', 'passed'],
      ['tests/test_sleepy.py::test_sleeps[2]', 'passed'],
      ['tests/test_sleepy.py::test_last_waits_for_the_first_result', 'passed'],
    ]);
    expect(streamed).toEqual(result.tests);
  });
});
