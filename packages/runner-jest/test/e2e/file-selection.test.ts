import { afterAll, describe, expect, it } from 'vitest';
import jest from '../../src/index.js';
import { cleanup, copy, run } from './support.js';

afterAll(cleanup);

const MATH = '__tests__/math.test.js';
const STRINGS = '__tests__/strings.test.js';
const fileOf = (id: string): string => id.slice(0, id.indexOf('::'));

describe('a selection of whole test files, and files left out of a whole run, on real Jest', () => {
  it('declares it can select files', () => {
    expect(jest().supportsFileSelection).toBe(true);
  });

  it('runs every test of a selected file, skipped and todo ones reported as a full run reports them', async () => {
    const root = await copy('green');
    const all = await run(root);
    const math = all.tests.filter((t) => fileOf(t.id) === MATH);
    expect(math.length).toBeGreaterThan(3);
    const only = await run(root, { selection: [MATH] });
    expect(only.status).toBe('passed');
    expect(only.tests.map((t) => `${t.id}=${t.status}`).sort()).toEqual(
      math.map((t) => `${t.id}=${t.status}`).sort(),
    );
    expect(only.command).toContain(`--runTestsByPath ${MATH}`);
    expect(only.command).not.toContain('--testNamePattern');
  });

  it('leaves the excluded files out of a run of the whole suite', async () => {
    const root = await copy('green');
    const rest = await run(root, { exclude: [MATH] });
    expect(rest.status).toBe('passed');
    expect(new Set(rest.tests.map((t) => fileOf(t.id)))).toEqual(new Set([STRINGS]));
  });
});
