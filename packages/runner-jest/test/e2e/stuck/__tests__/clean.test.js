const { dirname } = require('node:path');

test('sees no flag or variable of the runner', () => {
  // the project is a copy under the repository's .tmp: the repository's own path may hold the word
  const repo = dirname(dirname(process.cwd()));
  expect(process.execArgv.filter((a) => /suture/i.test(a.split(repo).join('')))).toEqual([]);
  // the variables the caller's own environment had (INHERITED_VARS) are not the runner's
  const inherited = new Set((process.env.INHERITED_VARS ?? '').split(',').filter(Boolean));
  expect(Object.keys(process.env).filter((k) => /suture/i.test(k) && !inherited.has(k))).toEqual([]);
});

test('runs in a worker process', () => {
  // Jest's worker processes talk to Jest over an IPC channel; the Jest process itself has none
  expect(typeof process.send).toBe('function');
});
