// Jest reporter shipped with @suture/runner-jest. Appends one JSON line when each test case starts
// and ends to the file named by SUTURE_JEST_EVENTS, so that when a synchronous infinite loop
// makes the run hit its wall-clock limit, the runner still knows which test was running.
'use strict';
const fs = require('node:fs');

class SutureJestReporter {
  constructor() {
    this.path = process.env.SUTURE_JEST_EVENTS;
  }
  emit(event) {
    if (this.path) fs.appendFileSync(this.path, `${JSON.stringify(event)}\n`);
  }
  onTestCaseStart(test, info) {
    this.emit({
      event: 'start',
      file: test.path,
      fullName: info.fullName,
      ancestorTitles: info.ancestorTitles,
      title: info.title,
    });
  }
  onTestCaseResult(test, result) {
    this.emit({ event: 'end', file: test.path, fullName: result.fullName, status: result.status });
  }
  onTestFileStart(test) {
    this.emit({ event: 'file-start', file: test.path });
  }
}

module.exports = SutureJestReporter;
