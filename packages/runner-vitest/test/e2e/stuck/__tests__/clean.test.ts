import { expect, it } from 'vitest';

it('sees no flag or variable of the runner', () => {
  expect(process.execArgv.filter((a) => /suture/i.test(a))).toEqual([]);
  expect(Object.keys(process.env).filter((k) => /suture/i.test(k))).toEqual([]);
});
