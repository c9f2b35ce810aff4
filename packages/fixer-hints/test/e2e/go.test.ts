import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GateReport } from '@suture/core';
import go from '@suture/runner-go';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gateWithHints } from './gate-support.js';

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

/** The gate with the hints fixer alone over a copy of a std-only module, with the module proxy off. */
async function heal(name: string): Promise<{ root: string; report: GateReport }> {
  const root = await mkdtemp(join(tmpdir(), `suture-hints-go-${name}-`));
  temps.push(root);
  await cp(fileURLToPath(new URL(`../fixtures/go/${name}`, import.meta.url)), root, { recursive: true });
  commitAll(root, ['.suture/']);
  const runner = go({ env: { GOPROXY: 'off', GOFLAGS: '-mod=mod' } });
  return { root, report: await gateWithHints(root, name, runner, 180_000) };
}

/** The files gofmt would rewrite in a folder (none when all are formatted as gofmt writes them). */
const unformatted = (root: string): string =>
  execFileSync('gofmt', ['-l', root], { encoding: 'utf8' }).trim();

describe('Go build errors healed through the gate, with the real go toolchain', () => {
  it('removes an import the compiler reports unused, and the file stays as gofmt writes it', async () => {
    const { root, report } = await heal('unused');
    const failure = report.projects[0]!.failures[0]!;
    expect(failure.failure).toMatchObject({ kind: 'build' });
    expect(failure.outcome).toBe('healed');
    expect(failure.attempts[0]!.rationale).toMatch(/removed the unused import "os"/);
    const text = await readFile(join(root, 'words.go'), 'utf8');
    expect(text).not.toContain('"os"');
    expect(text).toContain('"strings"');
    expect(unformatted(root)).toBe('');
    expect(report.exitCode).toBe(0);
  });

  it('imports the one standard package a missing name stands for (`strings`), sorted into the imports', async () => {
    const { root, report } = await heal('missing');
    const failure = report.projects[0]!.failures[0]!;
    expect(failure.outcome).toBe('healed');
    expect(failure.attempts[0]!.rationale).toMatch(/imported "strings" for strings/);
    expect(await readFile(join(root, 'words.go'), 'utf8')).toMatch(/import "fmt"\nimport "strings"\n/);
    expect(unformatted(root)).toBe('');
    expect(report.exitCode).toBe(0);
  });

  it('never picks between math/rand and crypto/rand: the failure goes to the next fixer with both named', async () => {
    const { root, report } = await heal('rand');
    const failure = report.projects[0]!.failures[0]!;
    expect(failure.failure.kind).toBe('build');
    expect(failure.outcome).toBe('unfixable');
    expect(failure.reason).toMatch(
      /dice\.go:5: undefined: rand.*crypto\/rand, math\/rand.*needs an LLM fixer/,
    );
    expect(await readFile(join(root, 'dice.go'), 'utf8')).not.toContain('import');
    expect(report.exitCode).toBe(1);
  });

  it('removes an unused variable declared as a literal, and nothing else of the function', async () => {
    const { root, report } = await heal('unusedvar');
    const failure = report.projects[0]!.failures[0]!;
    expect(failure.outcome).toBe('healed');
    expect(failure.attempts[0]!.rationale).toMatch(/removed the unused variable count/);
    const text = await readFile(join(root, 'sum.go'), 'utf8');
    expect(text).not.toContain('count');
    expect(text).toContain('\ttotal := 0\n\tfor _, x := range xs {');
    expect(report.exitCode).toBe(0);
  });

  it('never removes an unused variable whose value is a call (it may panic or change state): the next fixer gets it', async () => {
    const { root, report } = await heal('callvar');
    const failure = report.projects[0]!.failures[0]!;
    expect(failure.outcome).toBe('unfixable');
    expect(failure.reason).toMatch(/sum\.go:6: declared and not used: first: its declaration is not a lone/);
    expect(await readFile(join(root, 'sum.go'), 'utf8')).toContain('\tfirst := head(xs)\n');
    expect(report.exitCode).toBe(1);
  });
  it('replaces misspelled names by the one closest name visible there: a local, a parameter, a function of another file', async () => {
    const { root, report } = await heal('typo');
    const failure = report.projects[0]!.failures[0]!;
    expect(failure.outcome).toBe('healed');
    expect(failure.attempts[0]!.rationale).toMatch(/discont → discount.*summ → sum.*Totl → Total/);
    expect(await readFile(join(root, 'cart.go'), 'utf8')).toContain(
      '\t\tsum += price - discount\n\t}\n\treturn sum\n',
    );
    expect(await readFile(join(root, 'report.go'), 'utf8')).toContain('Total(prices, 0)');
    expect(unformatted(root)).toBe('');
    expect(report.exitCode).toBe(0);
  });

  it('never takes a name from a block that has ended: a local of an if body is not visible after it', async () => {
    const { root, report } = await heal('blockscope');
    const failure = report.projects[0]!.failures[0]!;
    expect(failure.outcome).toBe('unfixable');
    expect(failure.reason).toMatch(/clamp\.go:9: undefined: cappd: no visible name is close to cappd/);
    expect(await readFile(join(root, 'clamp.go'), 'utf8')).toContain('\treturn cappd\n');
    expect(report.exitCode).toBe(1);
  });

  it('never guesses between two equally close names: both are named for the next fixer', async () => {
    const { root, report } = await heal('tie');
    const failure = report.projects[0]!.failures[0]!;
    expect(failure.outcome).toBe('unfixable');
    expect(failure.reason).toMatch(/disk\.go:9: undefined: Lount: Count, Mount are equally close to Lount/);
    expect(await readFile(join(root, 'disk.go'), 'utf8')).toContain('return Lount()');
    expect(report.exitCode).toBe(1);
  });
});
