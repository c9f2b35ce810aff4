import { expect, it } from 'vitest';

it('sees no flag or variable of the runner', () => {
  expect(process.execArgv.filter((a) => /suture/i.test(a))).toEqual([]);
  // the variables the caller's own environment had (INHERITED_VARS) are not the runner's
  const inherited = new Set((process.env.INHERITED_VARS ?? '').split(',').filter(Boolean));
  expect(Object.keys(process.env).filter((k) => /suture/i.test(k) && !inherited.has(k))).toEqual([]);
});
