// A worker thread that @suture/runner-jest and @suture/runner-vitest start in each process that
// runs tests. It waits for the runner's request (a file named `request` in its folder) and then
// takes the JavaScript stack of the process's main thread through the inspector: a message of an
// inspector session interrupts the thread, so it arrives while a test blocks the thread with
// synchronous code, which no timer, signal handler or diagnostic report of that thread can do.
// The stack goes to `stack-<pid>.json` in the same folder, written whole (a rename) for the runner
// to read; then the thread resumes the main thread and ends.
'use strict';
const { Session } = require('node:inspector');
const { existsSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { workerData } = require('node:worker_threads');

const dir = workerData.dir;
const POLL_MS = 50;
/** Evaluated in the paused frame: its stack, every frame of it, from the realm the test runs in. */
const STACK_EXPRESSION = `(function () {
  var limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 200;
  try { return String(new Error('suture-stuck').stack); } finally { Error.stackTraceLimit = limit; }
})()`;

function capture() {
  // the session does not keep this thread alive while it waits for the main thread
  const keep = setTimeout(() => undefined, 60_000);
  const session = new Session();
  session.connectToMainThread();
  const scripts = new Map();
  session.on('Debugger.scriptParsed', ({ params }) => {
    scripts.set(params.scriptId, { url: params.url, sourceMapURL: params.sourceMapURL || undefined });
  });
  session.on('Debugger.paused', ({ params }) => {
    const frames = params.callFrames.map((f) => {
      const script = scripts.get(f.location.scriptId) ?? {};
      return {
        functionName: f.functionName,
        url: script.url ?? f.url ?? '',
        line: f.location.lineNumber + 1,
        column: (f.location.columnNumber ?? 0) + 1,
        ...(script.sourceMapURL ? { sourceMapURL: script.sourceMapURL } : {}),
      };
    });
    const write = (text) => {
      const out = join(dir, `stack-${process.pid}.json`);
      writeFileSync(`${out}.tmp`, JSON.stringify({ pid: process.pid, frames, ...(text ? { text } : {}) }));
      renameSync(`${out}.tmp`, out);
      session.post('Debugger.resume', () => {
        session.disconnect();
        clearTimeout(keep);
      });
    };
    // the stack as the paused code's own Error prints it: the test tool's hook of
    // Error.prepareStackTrace maps it through the source maps it keeps, which the scripts the
    // engine runs do not always name
    const top = params.callFrames[0];
    if (!top) return write(undefined);
    session.post(
      'Debugger.evaluateOnCallFrame',
      {
        callFrameId: top.callFrameId,
        expression: STACK_EXPRESSION,
        silent: true,
        returnByValue: true,
        timeout: 200,
      },
      (error, result) => {
        const value = !error && result && result.result && result.result.value;
        write(typeof value === 'string' ? value : undefined);
      },
    );
  });
  session.post('Debugger.enable', () => session.post('Debugger.pause'));
}

const timer = setInterval(() => {
  if (!existsSync(join(dir, 'request'))) return;
  clearInterval(timer);
  try {
    capture();
  } catch {
    // no inspector in this Node (built without it): the runner stops the test without a stack
  }
}, POLL_MS);
