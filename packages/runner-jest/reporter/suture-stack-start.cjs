// Starts reporter/suture-stack-helper.cjs once in this process, from its main thread: in a worker
// thread (Vitest's "threads" pool) the inspector reaches the process's main thread only, which is
// not the one a test blocks. Loaded by the runners' entries, by Jest's worker processes (as a
// --require that removes itself from process.execArgv) and by the Vitest setup file.
'use strict';
const { join } = require('node:path');
const { Worker, isMainThread } = require('node:worker_threads');

const STARTED = Symbol.for('@suture/stack-helper');
const ENV = 'SUTURE_STACKS_DIR';

/** Starts the helper for `dir`; says whether it runs (false in a worker thread). */
function startStackHelper(dir) {
  if (!isMainThread || !dir) return false;
  if (process[STARTED]) return true;
  Object.defineProperty(process, STARTED, { value: true });
  const helper = new Worker(join(__dirname, 'suture-stack-helper.cjs'), {
    workerData: { dir },
    stdout: true,
    stderr: true,
  });
  helper.unref();
  helper.on('error', () => undefined);
  return true;
}

// as a --require of a Jest worker: the folder comes in the environment, which the tests then do
// not see, nor this file in the process's flags
if (process.env[ENV] !== undefined) {
  const dir = process.env[ENV];
  delete process.env[ENV];
  const i = process.execArgv.findIndex(
    (a, k) => (a === '--require' || a === '-r') && process.execArgv[k + 1] === __filename,
  );
  if (i >= 0) process.execArgv.splice(i, 2);
  startStackHelper(dir);
}

module.exports = { startStackHelper, ENV };
