import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, edit, gate, run } from './support.js';

afterAll(cleanup);

/** Code under test that prints GoogleTest's result line for the running case and ends the program. */
const FAKE_OK = {
  search: 'return a - b;',
  replace: 'std::printf("[       OK ] Calc.Adds (0 ms)\\n");\n  std::fflush(stdout);\n  _exit(0);',
};
const INCLUDES = {
  search: '#include <cstdlib>',
  replace: '#include <cstdio>\n#include <cstdlib>\n#include <unistd.h>',
};

/** A static initializer that ends the program when it is asked for the JSON listing suture reads. */
const NO_JSON_LISTING = `#include <fstream>
#include <iterator>
#include <string>

namespace {
const int guard = [] {
  std::ifstream f("/proc/self/cmdline");
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (s.find("--gtest_list_tests") != std::string::npos && s.find("--gtest_output") != std::string::npos) _exit(0);
  return 0;
}();
}  // namespace`;

describe("GoogleTest's own report, checked against the printed transcript", () => {
  it('fails a case whose code under test prints [ OK ] for it and exits 0, discovered or in a whole binary', async () => {
    const root = await copy('exit-early');
    await edit(root, 'src/calc.cpp', INCLUDES.search, INCLUDES.replace);
    await edit(root, 'src/calc.cpp', FAKE_OK.search, FAKE_OK.replace);
    const result = await run(root);
    expect(result.status).toBe('failed');
    const byId = Object.fromEntries(result.tests.map((t) => [t.id, t]));
    for (const id of ['Calc.Adds', 'whole::Calc.Adds'])
      expect(byId[id], id).toMatchObject({
        status: 'failed',
        message: expect.stringContaining(
          "the output and exit code of its program say Calc.Adds passed, but GoogleTest's own report (the file it writes from its own records as the program ends) holds no result for it",
        ),
      });
    expect(byId['Calc.Twice']).toMatchObject({ status: 'passed' });
  }, 300_000);

  it('fails it too when the program refuses to list its cases as JSON, once another of its runs wrote a report', async () => {
    const root = await copy('exit-early');
    await edit(root, 'src/calc.cpp', INCLUDES.search, `${INCLUDES.replace}\n${NO_JSON_LISTING}`);
    await edit(root, 'src/calc.cpp', FAKE_OK.search, FAKE_OK.replace);
    const result = await run(root);
    expect(result.status).toBe('failed');
    expect(result.tests.find((t) => t.id === 'Calc.Adds')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining(
        "the output and exit code of its program say Calc.Adds passed, but GoogleTest's own report",
      ),
    });
  }, 300_000);

  it('fails a case whose program forks in a static initializer, the parent exiting 0 at once', async () => {
    const root = await copy('exit-early');
    await edit(
      root,
      'src/calc.cpp',
      INCLUDES.search,
      `${INCLUDES.replace}\n\nstatic const int kForked = [] {\n  if (fork() > 0) _exit(0);\n  return 0;\n}();`,
    );
    const result = await run(root);
    expect(result.status).toBe('failed');
    // CTest calls the discovered entry passed by its exit code; GoogleTest's report, written by the fork, does not
    expect(result.tests.find((t) => t.id === 'Calc.Adds')).toMatchObject({
      status: 'failed',
      message: expect.stringContaining('the output and exit code of its program say Calc.Adds passed, but'),
    });
  }, 300_000);

  it('keeps a heal that prints [ OK ] and exits from healing, and the gate exits 1', async () => {
    const root = await copy('exit-early');
    const fixer = scriptedFixer(
      Array(10).fill({
        verdict: 'edits',
        rationale: 'report the result early',
        edits: [
          { file: 'src/calc.cpp', ...INCLUDES },
          { file: 'src/calc.cpp', ...FAKE_OK },
        ],
      }),
    );
    // let past the edit checks: the run itself must not take the printed line for a pass
    const report = await gate(root, {
      mode: 'check',
      fixers: [fixer],
      heal: { maxAttempts: 1, allowTestWeakening: true, maxFilesPerAttempt: 2 },
    });
    expect(report.exitCode).toBe(1);
    const project = report.projects[0]!;
    expect(project.failures.some((f) => f.outcome === 'healed')).toBe(false);
    const adds = project.failures.find((f) => f.failure.tests.includes('Calc.Adds'))!;
    expect(adds.attempts[0]).toMatchObject({ verdict: 'failed-validation', validation: { passed: false } });
    expect(adds.attempts[0]!.validation!.stillFailing).toContainEqual({
      id: 'Calc.Adds',
      message: expect.stringContaining('the output and exit code of its program say Calc.Adds passed'),
    });
  }, 600_000);

  it('passes every case of programs that ran two at a time and may have picked the same report file, and of one run through a wrapper', async () => {
    const root = await copy('many-cases');
    const result = await run(root);
    expect(result.tests).toHaveLength(80);
    expect(result.tests.filter((t) => t.id.startsWith('wrapped::'))).toHaveLength(40);
    expect(result.tests.filter((t) => t.status !== 'passed')).toEqual([]);
    expect(result.status).toBe('passed');
  }, 300_000);
});
