import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { apply, cleanup, copy, propose, request } from './support.js';

afterAll(cleanup);

// Real pytest output (Python 3.11, no suggestions) and what CPython 3.12 itself suggests for the same
// names, both captured by fixtures/captured/capture-python.sh.
const captured = (name: string): string =>
  readFileSync(new URL(`./fixtures/captured/${name}`, import.meta.url), 'utf8');

/** One failure per pytest section: its `E` line as title, its text as evidence, its last `file:line:` as location. */
function failures(output: string): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  const parts = output.split(/^=+ short test summary/m)[0]!.split(/^_{3,} (\w+) _{3,}$/m);
  for (let i = 1; i < parts.length; i += 2) {
    const text = parts[i + 1]!;
    const at = [...text.matchAll(/^(\S+\.py):(\d+): \w+$/gm)].at(-1)!;
    out.set(parts[i]!, {
      kind: 'exception',
      title: /^E\s+(.*)$/m.exec(text)![1]!,
      evidence: text,
      location: { file: at[1]!, line: Number(at[2]) },
    });
  }
  return out;
}

const pytestOutput = failures(captured('pytest-lookup.txt'));
const cpython = captured('cpython-3.12-suggestions.txt');

describe('Python NameError ties, broken in lookup order', () => {
  it('prefers a module-level function over an equally close builtin, as CPython does', async () => {
    expect(cpython).toContain("name 'helpr' is not defined. Did you mean: 'helper'?");
    const root = await copy('py');
    const req = request(root, 'python', pytestOutput.get('test_run')!, ['app/lookup.py']);
    const proposal = await propose(req);
    expect(proposal).toMatchObject({
      verdict: 'edits',
      rationale: expect.stringMatching(
        /closest visible name is "helper" \(as close as "help", which Python looks up later\)/,
      ),
    });
    await apply(root, req, proposal);
    expect(
      execFileSync('python3', ['-c', 'from app.lookup import run; print(run(2))'], {
        cwd: root,
        encoding: 'utf8',
      }).trim(),
    ).toBe('4');
  });

  it('prefers a local over an equally close builtin, as CPython does', async () => {
    expect(cpython).toContain("name 'mapz' is not defined. Did you mean: 'maps'?");
    const root = await copy('py');
    const req = request(root, 'python', pytestOutput.get('test_count_maps')!, ['app/lookup.py']);
    const proposal = await propose(req);
    expect(proposal).toMatchObject({
      verdict: 'edits',
      rationale: expect.stringMatching(/"maps" \(as close as "map"/),
    });
    await apply(root, req, proposal);
    expect(
      execFileSync('python3', ['-c', 'from app.lookup import count_maps; print(count_maps([0, 1, 2]))'], {
        cwd: root,
        encoding: 'utf8',
      }).trim(),
    ).toBe('2');
  });

  it('never picks between two equally close names of the same scope, where CPython takes the first defined', async () => {
    expect(cpython).toContain("name 'cax_name' is not defined. Did you mean: 'cat_name'?");
    const root = await copy('py');
    const proposal = await propose(
      request(root, 'python', pytestOutput.get('test_describe')!, ['app/ambiguous.py']),
    );
    expect(proposal).toMatchObject({
      verdict: 'unfixable',
      diagnosis: expect.stringMatching(/several names are equally close \(car_name, cat_name\)/),
    });
  });
});
