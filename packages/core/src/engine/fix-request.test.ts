import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FailureSchema, type Failure } from '../api/contracts/failure.js';
import { sourceSlices, trimEvidence } from './fix-request.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'suture-slices-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const filler = (prefix: string, n: number, style: 'py' | 'c'): string =>
  Array.from({ length: n }, (_, i) =>
    style === 'py'
      ? `def ${prefix}${i}():\n    return ${i}  # padding padding padding padding padding padding\n`
      : `int ${prefix}${i}() {\n  return ${i}; // padding padding padding padding padding padding\n}\n`,
  ).join('\n');

const failure = (over: Partial<Failure> = {}): Failure =>
  FailureSchema.parse({
    id: 'p:x',
    kind: 'assertion',
    title: 't',
    tests: ['t'],
    evidence: 'e',
    fingerprint: 'x',
    repairable: true,
    ...over,
  });

describe('trimEvidence', () => {
  it('keeps the last 200 lines and says how many were dropped', () => {
    const text = Array.from({ length: 450 }, (_, i) => `line ${i}`).join('\n');
    const out = trimEvidence(text).split('\n');
    expect(out).toHaveLength(201);
    expect(out[0]).toBe('[... 250 earlier lines omitted ...]');
    expect(out[1]).toBe('line 250');
    expect(out[200]).toBe('line 449');
    expect(trimEvidence('short\ntext')).toBe('short\ntext');
  });
});

describe('sourceSlices', () => {
  it('sends small files whole', async () => {
    await writeFile(join(root, 'a.py'), 'def f():\n    return 1\n');
    const slices = await sourceSlices(
      root,
      failure(),
      { entries: [{ file: 'a.py', role: 'source', reasons: ['frame 1'] }] },
      2000,
    );
    expect(slices).toEqual([
      { file: 'a.py', startLine: 1, endLine: 3, text: 'def f():\n    return 1\n', reason: 'frame 1' },
    ]);
  });

  it("slices a big Python file to the symbol's whole definition, decorators included", async () => {
    const target =
      '@cache\ndef total(items):\n    s = 0\n    for i in items:\n\n        s += i\n    return s - 1\n';
    const text = `${filler('a', 150, 'py')}\n${target}\n${filler('b', 150, 'py')}`;
    await writeFile(join(root, 'big.py'), text);
    const slices = await sourceSlices(
      root,
      failure(),
      { entries: [{ file: 'big.py', role: 'source', reasons: ['r'], symbols: ['Cart.total'] }] },
      4000,
    );
    expect(slices).toHaveLength(1);
    expect(slices[0]!.text).toBe(target.trimEnd());
    const lines = text.split('\n');
    expect(lines.slice(slices[0]!.startLine - 1, slices[0]!.endLine).join('\n')).toBe(slices[0]!.text);
  });

  it('slices a big C++ file to the function body by braces', async () => {
    const target =
      'int total(const std::vector<int>& v)\n{\n  int s = 0;\n  for (int x : v) { s += x; }\n  return s - 1;\n}';
    await writeFile(join(root, 'big.cpp'), `${filler('a', 120, 'c')}\n${target}\n\n${filler('b', 120, 'c')}`);
    const slices = await sourceSlices(
      root,
      failure(),
      { entries: [{ file: 'big.cpp', role: 'source', reasons: ['r'], symbols: ['total'] }] },
      4000,
    );
    expect(slices.map((s) => s.text)).toEqual([target]);
  });

  it('falls back to a window around the failure line, then to the file head, within the budget', async () => {
    const text = filler('a', 400, 'py');
    await writeFile(join(root, 'big.py'), text);
    const [around] = await sourceSlices(
      root,
      failure({ location: { file: 'big.py', line: 600 } }),
      { entries: [{ file: 'big.py', role: 'source', reasons: ['r'] }] },
      4000,
    );
    expect(around).toMatchObject({ startLine: 560, endLine: 640 });
    const [head] = await sourceSlices(
      root,
      failure(),
      { entries: [{ file: 'big.py', role: 'source', reasons: ['r'] }] },
      4000,
    );
    expect(head).toMatchObject({ startLine: 1, endLine: 80 });
    const tiny = await sourceSlices(
      root,
      failure(),
      { entries: [{ file: 'big.py', role: 'source', reasons: ['r'] }] },
      100,
    );
    expect(tiny.reduce((n, s) => n + s.text.length, 0)).toBeLessThanOrEqual(400);
  });
});
