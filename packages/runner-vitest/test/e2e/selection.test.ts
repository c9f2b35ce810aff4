import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, run } from './support.js';

afterAll(cleanup);

const FILE = '__tests__/names.test.ts';
const SPECIAL = `${FILE}::keeps $pecial ^chars* (in) [brackets] | pipes \\ and / slashes?`;

describe('a targeted re-run with Vitest', () => {
  it('runs exactly the asked describe.each and test.each cases, and names with special characters', async () => {
    const root = await copy('names');
    const all = await run(root);
    expect(Object.fromEntries(all.tests.map((t) => [t.id, t.status]))).toEqual({
      [`${FILE}::with a = 1 > doubles (a + a)`]: 'passed',
      [`${FILE}::with a = 1 > is one`]: 'passed',
      [`${FILE}::with a = 2 > doubles (a + a)`]: 'passed',
      [`${FILE}::with a = 2 > is one`]: 'failed',
      [SPECIAL]: 'failed',
      [`${FILE}::case x.y`]: 'passed',
      [`${FILE}::case x*y`]: 'failed',
    });
    const failing = all.tests.filter((t) => t.status === 'failed').map((t) => t.id);
    const again = await run(root, { selection: failing });
    expect(again.tests.map((t) => [t.id, t.status]).sort()).toEqual(
      failing.map((id) => [id, 'failed']).sort(),
    );
    // a pattern character in a name matches only itself: `x*y` never selects `x.y`, nor the reverse
    const one = await run(root, { selection: [`${FILE}::case x.y`] });
    expect(one.tests.map((t) => [t.id, t.status])).toEqual([[`${FILE}::case x.y`, 'passed']]);
    const row = await run(root, { selection: [`${FILE}::with a = 1 > is one`] });
    expect(row.tests.map((t) => [t.id, t.status])).toEqual([[`${FILE}::with a = 1 > is one`, 'passed']]);
  });

  it('streams each result as the test ends, before the run is over', async () => {
    const root = await copy('live');
    const streamed: string[] = [];
    const result = await run(root, {
      onTestResult: (t) => {
        streamed.push(t.id);
        if (t.id.endsWith('::passes first')) writeFileSync(join(root, 'released'), '');
      },
    });
    expect(result.status).toBe('passed');
    expect(streamed).toEqual([
      '__tests__/live.test.ts::passes first',
      '__tests__/live.test.ts::waits for the news of the first',
    ]);
  });
});
