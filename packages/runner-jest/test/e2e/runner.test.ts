import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FailureSchema, ScopeSchema, type RunResult } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jest from '../../src/index.js';
import { cleanup, copy, project, run } from './support.js';

afterAll(cleanup);

const ID = (name: string) => `__tests__/cart.test.js::cart ${name}`;

describe('Jest runner on a real project', () => {
  let root: string;
  let result: RunResult;
  beforeAll(async () => {
    root = await copy('basic');
    result = await run(root);
  });

  it('reports per-test results with file, 1-based line, status and expected/received', () => {
    const byId = Object.fromEntries(result.tests.map((t) => [t.id, t]));
    expect(result.status).toBe('failed');
    expect(byId[ID('subtotal adds lines')]).toMatchObject({
      status: 'passed',
      file: '__tests__/cart.test.js',
      line: 4,
    });
    const total = byId[ID('total applies the discount from 100')]!;
    expect(total).toMatchObject({ status: 'failed', line: 8, details: { expected: '90', received: '100' } });
    expect(byId[ID('adds 2 + 2 = 5')]!.status).toBe('failed');
    expect(byId[ID('adds 1 + 1 = 2')]!.status).toBe('passed');
    expect(byId[ID('not today')]!.status).toBe('skipped');
    expect(byId[ID('waits too long')]!.status).toBe('timeout');
  });

  it('classifies an assertion, an exception in the source function and an async timeout', async () => {
    const failures = (await jest().analyzer!().analyze(result, project(root))).map((f) =>
      FailureSchema.parse({ ...f, id: f.fingerprint }),
    );
    const of = (name: string) => failures.find((f) => f.tests.includes(ID(name)))!;
    expect(of('total applies the discount from 100')).toMatchObject({
      kind: 'assertion',
      location: { file: '__tests__/cart.test.js', line: 9 },
    });
    expect(of('label names the count')).toMatchObject({
      kind: 'exception',
      location: { file: 'src/cart.js', line: 13, symbol: 'label' },
    });
    expect(of('label names the count').title).toMatch(/ReferenceError: totl is not defined/);
    expect(of('waits too long').kind).toBe('timeout');
    // the failure text is carried once, not twice
    const evidence = of('total applies the discount from 100').evidence;
    expect(evidence.split('Expected: 90').length - 1).toBe(1);
  });

  it('scopes the test callback through requires to the definitions', async () => {
    const analyzer = jest().analyzer!();
    const failures = await analyzer.analyze(result, project(root));
    const total = FailureSchema.parse({
      ...failures.find((f) => f.tests.includes(ID('total applies the discount from 100')))!,
      id: 'x',
    });
    const scope = ScopeSchema.parse(await analyzer.scope(total, project(root)));
    const files = Object.fromEntries(scope.entries.map((e) => [e.file, e]));
    expect(files['src/cart.js']!.symbols).toContain('total');
    expect(files['src/pricing.js']!.symbols).toContain('discount');
    expect(files['src/pricing.js']!.reasons.join()).toMatch(/total calls discount \(from '\.\/pricing'\)/);
  });

  it('re-runs exactly a failing test.each case', async () => {
    const r = await run(root, { selection: [ID('adds 2 + 2 = 5')] });
    expect(r.selected).toBe(true);
    expect(r.tests.map((t) => [t.id, t.status])).toEqual([[ID('adds 2 + 2 = 5'), 'failed']]);
  });

  it('detects the project', async () => {
    await writeFile(join(root, 'jest.config.js'), 'module.exports = {};\n');
    expect(await jest().detect!(root)).toMatchObject({ reason: 'jest.config.js' });
  });
});

describe('Jest runner edge cases', () => {
  it('reports a syntax error as one collection failure with file and position', async () => {
    const root = await copy('syntax');
    const r = await run(root);
    expect(r.status).toBe('failed');
    expect(r.tests.map((t) => [t.id, t.status])).toEqual([['__tests__/ok.test.js::fine', 'passed']]);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({
      file: '__tests__/broken.test.js',
      line: 1,
      code: 'SyntaxError',
    });
    const failures = await jest().analyzer!().analyze(r, project(root));
    expect(failures.map((f) => f.kind)).toEqual(['syntax']);
  });

  it('kills a synchronous infinite loop at the wall-clock limit and names the test', async () => {
    const root = await copy('loop');
    const r = await run(root, { timeoutMs: 20_000 });
    expect(r.status).toBe('timeout');
    expect(r.error).toMatch(/while running __tests__\/loop\.test\.js::spins forever/);
    const spinning = r.tests.find((t) => t.id === '__tests__/loop.test.js::spins forever');
    expect(spinning?.status).toBe('timeout');
    const failures = await jest().analyzer!().analyze(r, project(root));
    expect(failures.map((f) => f.kind)).toEqual(['timeout']);
  });

  it('runs a TypeScript project through ts-jest', async () => {
    const root = await copy('ts');
    const r = await run(root);
    expect(r.tests.map((t) => [t.id, t.status]).sort()).toEqual([
      ['test/math.test.ts::clamps above', 'failed'],
      ['test/math.test.ts::clamps below', 'passed'],
    ]);
    const failures = await jest().analyzer!().analyze(r, project(root));
    expect(failures[0]).toMatchObject({
      kind: 'assertion',
      location: { file: 'test/math.test.ts', line: 8 },
    });
    const scope = ScopeSchema.parse(
      await jest().analyzer!().scope(FailureSchema.parse({ ...failures[0], id: 'x' }), project(root)),
    );
    expect(scope.entries.map((e) => e.file)).toContain('src/math.ts');
  });

  it('runs a native ES module project with the VM-modules flag Jest needs, and not without', async () => {
    const root = await copy('esm');
    const r = await run(root);
    expect(r.tests.map((t) => [t.id, t.status, t.line]).sort()).toEqual([
      ['__tests__/math.test.js::adds', 'failed', 3],
      ['__tests__/math.test.js::ok', 'passed', 6],
    ]);
    expect(r.outputTail).not.toContain('ExperimentalWarning');
    const failures = await jest().analyzer!().analyze(r, project(root));
    expect(failures.map((f) => [f.kind, f.location?.file])).toEqual([
      ['assertion', '__tests__/math.test.js'],
    ]);
    const forcedOff = await run(root, { options: { esm: false } });
    expect(forcedOff.diagnostics.map((d) => d.message)).toEqual([
      expect.stringContaining('Must use import to load ES Module'),
    ]);
  });

  it('scopes a call into a workspace package through its package.json exports, not its stale main', async () => {
    const root = await copy('workspace');
    // what npm install links for a workspace
    await mkdir(join(root, 'node_modules/@shop'), { recursive: true });
    await symlink('../../packages/money', join(root, 'node_modules/@shop/money'), 'dir');
    const r = await run(root);
    expect(r.tests.map((t) => [t.id, t.status])).toEqual([
      ['__tests__/money.test.js::converts euros to cents', 'failed'],
    ]);
    const analyzer = jest().analyzer!();
    const [failure] = await analyzer.analyze(r, project(root));
    const scope = ScopeSchema.parse(
      await analyzer.scope(FailureSchema.parse({ ...failure, id: 'x' }), project(root)),
    );
    const money = scope.entries.find((e) => e.file === 'packages/money/src/index.js');
    expect(money).toMatchObject({
      symbols: ['cents'],
      reasons: expect.arrayContaining([`test "converts euros to cents" calls cents (from '@shop/money')`]),
    });
  });

  it('takes extensionsToTreatAsEsm in jest.config.js as a native ES module project too (ts-jest with useESM)', async () => {
    const root = await copy('esm-ts');
    const r = await run(root);
    expect(r.tests.map((t) => [t.id, t.status, t.line]).sort()).toEqual([
      ['test/math.test.ts::clamps above', 'failed', 9],
      ['test/math.test.ts::clamps below', 'passed', 5],
    ]);
    // the test file's top-level await compiles only as an ES module
    const forcedOff = await run(root, { options: { esm: false } });
    expect(forcedOff.diagnostics.map((d) => [d.message, d.raw])).toEqual([
      [
        'Jest encountered an unexpected token',
        expect.stringContaining('await is only valid in async functions and the top level bodies of modules'),
      ],
    ]);
  });

  it('reports a config error and a missing Jest as run errors, not test failures', async () => {
    const root = await copy('syntax');
    await writeFile(
      join(root, 'jest.config.js'),
      'module.exports = { testEnviroment: "node", notAnOption: 1, testMatch: 5 };\n',
    );
    const bad = await run(root);
    expect(bad.status).toBe('error');
    expect(bad.error).toMatch(/Jest configuration error|Validation/);
    const missing = await run(root, { options: { jestBin: join(root, 'no-jest.js') } });
    expect(missing.status).toBe('error');
    expect(missing.error).toMatch(
      /the runner option "jestBin" names .*no-jest\.js, which does not exist: point it at/,
    );
  });

  it('says how to install Jest when the project has none', async () => {
    const { mkdtemp, cp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const outside = await mkdtemp(join(tmpdir(), 'suture-nojest-'));
    await cp(join(import.meta.dirname, 'syntax'), outside, { recursive: true });
    const r = await run(outside);
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/Jest is not installed .*npm install -D jest/);
    expect((await jest().doctor!(outside)).find((c) => c.name === 'jest')).toMatchObject({
      status: 'error',
      fix: 'npm install -D jest',
    });
  });
});
