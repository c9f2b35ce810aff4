// Jest reporter shipped with @suture/runner-jest. Appends one JSON line per event to the file
// jest-entry.cjs sets as `SutureJestReporter.eventsFile` (not a reporter option: Jest keys its
// transform cache on those), which the runner reads while Jest runs: results stream to suture as
// each test ends, and when a test never ends the runner knows which one it is. Writes are
// synchronous because a test that loops forever in-band blocks this very process right after its
// start event.
'use strict';
const fs = require('node:fs');

/** A test file's result in the shape of Jest's `--json` report (as @jest/test-result formats it). */
function suiteOf(r) {
  const assertionResults = r.testResults.map(({ failureDetails: _dropped, ...a }) => a);
  const common = { name: r.testFilePath, message: r.failureMessage ?? '', assertionResults };
  if (r.testExecError)
    return { ...common, status: 'failed', message: r.failureMessage ?? r.testExecError.message ?? '' };
  if (r.skipped) return { ...common, status: 'skipped' };
  const status = r.numFailingTests > 0 ? 'failed' : r.numPendingTests === 0 ? 'passed' : 'focused';
  return { ...common, status };
}

class SutureJestReporter {
  constructor(globalConfig) {
    this.path = SutureJestReporter.eventsFile;
    this.testTimeout = globalConfig.testTimeout;
  }
  emit(event) {
    if (this.path) fs.appendFileSync(this.path, `${JSON.stringify({ ...event, at: Date.now() })}\n`);
  }
  onRunStart() {
    this.emit({ event: 'run-start', testTimeout: this.testTimeout });
  }
  onTestFileStart(test) {
    this.emit({ event: 'file-start', file: test.path });
  }
  onTestCaseStart(test, info) {
    const { fullName, ancestorTitles, title } = info;
    this.emit({ event: 'test-start', file: test.path, fullName, ancestorTitles, title });
  }
  onTestCaseResult(test, result) {
    const { failureDetails: _dropped, ...rest } = result;
    this.emit({ event: 'test-end', file: test.path, result: rest });
  }
  onTestResult(test, result) {
    this.emit({ event: 'file-end', file: test.path, suite: suiteOf(result) });
  }
  onRunComplete(_contexts, results) {
    this.emit({ event: 'run-end', success: results.success });
  }
}

module.exports = SutureJestReporter;
