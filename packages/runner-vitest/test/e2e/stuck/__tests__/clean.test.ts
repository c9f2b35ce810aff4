import { dirname } from 'node:path';
import { expect, it } from 'vitest';

it('sees no flag or variable of the runner', () => {
  // the project is a copy under the repository's .tmp: the repository's own path may hold the word
  const repo = dirname(dirname(process.cwd()));
  expect(process.execArgv.filter((a) => /suture/i.test(a.split(repo).join('')))).toEqual([]);
  // the variables the caller's own environment had (INHERITED_VARS) are not the runner's
  const inherited = new Set((process.env.INHERITED_VARS ?? '').split(',').filter(Boolean));
  expect(Object.keys(process.env).filter((k) => /suture/i.test(k) && !inherited.has(k))).toEqual([]);
});
