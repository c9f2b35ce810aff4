// Jest reporter shipped with @suture/runner-jest. Appends one JSON line per event to the file
// jest-entry.cjs sets as `SutureJestReporter.eventsFile` (not a reporter option: Jest keys its
// transform cache on those), which the runner reads while Jest runs: results stream to suture as
// each test ends, and when a test never ends the runner knows which one it is. Writes are
// synchronous because a test that loops forever in-band blocks this very process right after its
// start event.
'use strict';
const fs = require('node:fs');

/**
 * The displayName of the Jest project a test file runs in, when it has one: one file may run in
 * several projects (a `--projects` list, a `projects` config), and each run of it is its own.
 */
function projectOf(test) {
  const d = test && test.context && test.context.config && test.context.config.displayName;
  const name = typeof d === 'string' ? d : d && d.name;
  return name ? { project: name } : {};
}

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
    this.emit({ event: 'file-start', file: test.path, ...projectOf(test) });
  }
  onTestCaseStart(test, info) {
    const { fullName, ancestorTitles, title } = info;
    this.emit({ event: 'test-start', file: test.path, ...projectOf(test), fullName, ancestorTitles, title });
  }
  onTestCaseResult(test, result) {
    const { failureDetails: _dropped, ...rest } = result;
    this.emit({ event: 'test-end', file: test.path, ...projectOf(test), result: rest });
  }
  onTestResult(test, result) {
    const project = projectOf(test);
    this.emit({ event: 'file-end', file: test.path, ...project, suite: { ...suiteOf(result), ...project } });
  }
  onRunComplete(_contexts, results) {
    this.emit({ event: 'run-end', success: results.success });
  }
}

module.exports = SutureJestReporter;
