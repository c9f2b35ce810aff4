import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EditPolicy, Edit } from '../api/contracts/fix.js';
import type { Scope } from '../api/contracts/failure.js';
import { API_VERSION, type Analyzer } from '../api/plugin.js';
import type { AssertionFact } from '../api/test-model.js';
import { validateEdits, MAX_EDIT_BYTES } from './validate.js';
import { applyScopePolicy } from './scope-policy.js';
import { HealConfigSchema } from '../api/contracts/config.js';
import { normalizeEditPath } from '../safety/paths.js';
import { namesOf } from '../analysis/test-model/names.js';

let root: string;
let outside: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'suture-validate-'));
  outside = await mkdtemp(join(tmpdir(), 'suture-outside-'));
  await mkdir(join(root, 'src'));
  await mkdir(join(root, 'tests'));
  await writeFile(
    join(root, 'src/app.py'),
    'def total(xs):\n    return sum(xs) - 1\n\ndef count(xs):\n    return len(xs) - 1\n',
  );
  await writeFile(join(root, 'tests/test_app.py'), 'def test_total():\n    assert total([1, 2]) == 3\n');
  await writeFile(join(root, 'src/blob.bin'), Buffer.from([1, 0, 2]));
  await symlink(outside, join(root, 'src/out'));
  await symlink(join(outside, 'target.py'), join(root, 'src/link.py'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

const policy = (over: Partial<EditPolicy> = {}): EditPolicy => ({
  editable: 'both',
  allowedPaths: ['**'],
  deniedPaths: [],
  allowTestWeakening: false,
  allowNewFiles: false,
  maxFilesPerAttempt: 5,
  ...over,
});
const scopeOf = (...files: string[]): Scope => ({
  entries: files.map((file) => ({
    file,
    symbols: [],
    role: file.startsWith('tests/') ? 'test' : 'source',
    reasons: ['test'],
    depth: 0,
  })),
  excluded: [],
});
const SCOPE = scopeOf(
  'src/app.py',
  'tests/test_app.py',
  'src/blob.bin',
  'src/out/x.py',
  'src/link.py',
  '.git/config',
  '.suture/lock',
  'src/secret.py',
);

async function check(edits: Edit[], over: Partial<EditPolicy> = {}, scope = SCOPE, analyzer?: Analyzer) {
  return validateEdits({
    projectRoot: root,
    edits,
    scope,
    policy: policy(over),
    ...(analyzer ? { analyzer } : {}),
  });
}

/**
 * A test double of a runner's test reader (the real ones live in the runner packages): each
 * `def test_` of a Python test file is a test, each `assert` line in it an assertion.
 */
const lineReader: Analyzer = {
  name: 'line-reader',
  apiVersion: API_VERSION,
  analyze: async () => [],
  scope: async () => ({ entries: [] }),
  testModel(file, content) {
    if (!file.endsWith('.py')) return undefined;
    const tests: Array<{ name: string; assertions: AssertionFact[]; skipped: boolean }> = [];
    for (const line of content.split('\n')) {
      const test = /^def (test_\w+)/.exec(line);
      if (test) tests.push({ name: test[1]!, assertions: [], skipped: false });
      const text = /^\s+(assert\b.*)$/.exec(line)?.[1];
      if (text)
        tests.at(-1)?.assertions.push({ text, names: namesOf(text), constant: namesOf(text).length === 0 });
    }
    return { tests, mocks: [], redefinitions: [] };
  },
};

describe('validateEdits', () => {
  it('applies search/replace edits in order and returns the planned contents without writing', async () => {
    const result = await check([
      { file: 'src/app.py', search: 'sum(xs) - 1', replace: 'sum(xs)' },
      { file: 'src/app.py', search: 'len(xs) - 1', replace: 'len(xs)' },
    ]);
    expect(result).toEqual({
      ok: true,
      unreadTests: [],
      expectationChanged: false,
      writes: [
        {
          file: 'src/app.py',
          before: expect.any(String),
          after: 'def total(xs):\n    return sum(xs)\n\ndef count(xs):\n    return len(xs)\n',
        },
      ],
    });
    expect(await readFile(join(root, 'src/app.py'), 'utf8')).toContain('sum(xs) - 1');
  });

  it.each<[string, Edit, string]>([
    ['traversal', { file: '../x.py', content: 'x' }, 'climbs out with ".."'],
    ['hidden traversal', { file: 'src/../../x.py', content: 'x' }, 'climbs out'],
    ['absolute', { file: '/etc/passwd', content: 'x' }, 'absolute path'],
    ['windows absolute', { file: 'C:\\x.py', content: 'x' }, 'absolute path'],
    ['NUL in path', { file: 'src/a\0.py', content: 'x' }, 'NUL byte'],
    ['.git', { file: '.git/config', content: 'x' }, 'denied by ".git/**"'],
    ['.GIT on a case-insensitive disk', { file: '.GIT/config', content: 'x' }, 'denied by ".git/**"'],
    ['.suture', { file: '.suture/lock', content: 'x' }, 'denied by ".suture/**"'],
    ['node_modules', { file: 'node_modules/x/index.js', content: 'x' }, 'denied by "**/node_modules/**"'],
    ['virtualenv', { file: '.venv/lib/site.py', content: 'x' }, 'denied by "**/.venv/**"'],
    ['config denial', { file: 'src/secret.py', content: 'x' }, 'denied by "src/*.py"'],
    [
      'symlinked folder escaping the root',
      { file: 'src/out/x.py', content: 'x' },
      'outside the project root',
    ],
    ['a symlink', { file: 'src/link.py', content: 'x' }, 'is a symbolic link'],
    ['outside the scope', { file: 'src/other.py', content: 'x' }, "outside the failure's scope"],
    ['search not found', { file: 'src/app.py', search: 'nope', replace: 'x' }, 'not found'],
    ['search found twice', { file: 'src/app.py', search: ' - 1', replace: '' }, 'occurs more than once'],
    ['NUL in content', { file: 'src/app.py', content: 'a\0b' }, 'NUL byte'],
    ['binary target', { file: 'src/blob.bin', content: 'text' }, 'binary file'],
    ['oversized content', { file: 'src/app.py', content: 'x'.repeat(MAX_EDIT_BYTES + 1) }, 'larger than'],
    ['no change', { file: 'src/app.py', search: 'sum', replace: 'sum' }, 'changes nothing'],
  ])('refuses %s with a reason', async (_name, edit, reason) => {
    const deny = edit.file === 'src/secret.py' ? { deniedPaths: ['src/*.py'] } : {};
    const result = await check([edit], deny);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toContain(reason);
  });

  it('refuses files outside allowedPaths and new files unless allowed', async () => {
    const a = await check([{ file: 'src/app.py', search: 'sum(xs) - 1', replace: 'sum(xs)' }], {
      allowedPaths: ['lib/**'],
    });
    expect(!a.ok && a.reason).toContain('outside heal.allowedPaths');
    const b = await check([{ file: 'src/new.py', content: 'x = 1\n' }]);
    expect(!b.ok && b.reason).toContain("outside the failure's scope");
    const c = await check([{ file: 'src/new.py', content: 'x = 1\n' }], { allowNewFiles: true });
    expect(c.ok && c.writes).toEqual([{ file: 'src/new.py', before: undefined, after: 'x = 1\n' }]);
    const d = await check([{ file: 'src/missing.py', search: 'a', replace: 'b' }], { allowNewFiles: true });
    expect(!d.ok && d.reason).toContain('does not exist');
  });

  it('enforces the editable side and the file count', async () => {
    const src = await check([{ file: 'tests/test_app.py', search: '== 3', replace: '== 2' }], {
      editable: 'source',
    });
    expect(!src.ok && src.reason).toContain('is a test and heal.editable is "source"');
    const tst = await check([{ file: 'src/app.py', search: 'sum(xs) - 1', replace: 'sum(xs)' }], {
      editable: 'tests',
    });
    expect(!tst.ok && tst.reason).toContain('is not a test');
    const many = await check(
      [
        { file: 'src/app.py', search: 'sum(xs) - 1', replace: 'sum(xs)' },
        { file: 'tests/test_app.py', search: '== 3', replace: '== 3.0' },
      ],
      { maxFilesPerAttempt: 1 },
    );
    expect(!many.ok && many.reason).toContain('more than 1 files');
  });

  it('refuses test weakening unless allowed, and flags an expectation change', async () => {
    const weak = await check(
      [
        {
          file: 'tests/test_app.py',
          search: '    assert total([1, 2]) == 3\n',
          replace: '    total([1, 2])\n',
        },
      ],
      {},
      SCOPE,
      lineReader,
    );
    expect(!weak.ok && weak.reason).toMatch(/test-weakening edit to tests\/test_app.py: removes 1 assertion/);
    const allowed = await check(
      [
        {
          file: 'tests/test_app.py',
          search: '    assert total([1, 2]) == 3\n',
          replace: '    total([1, 2])\n',
        },
      ],
      { allowTestWeakening: true },
      SCOPE,
      lineReader,
    );
    expect(allowed.ok).toBe(true);
    const expectation = await check(
      [{ file: 'tests/test_app.py', search: '== 3', replace: '== 2' }],
      {},
      SCOPE,
      lineReader,
    );
    expect(expectation.ok && expectation.expectationChanged).toBe(true);
  });

  it('refuses a test-only edit to a file no test model reads, and keeps one beside a code edit for the differential check', async () => {
    await writeFile(join(root, 'tests/check.sh'), 'test "$(sh src/calc.sh)" = 3\n');
    await writeFile(join(root, 'src/calc.sh'), 'echo 2\n');
    const shell: Analyzer = {
      name: 'shell-analyzer',
      apiVersion: API_VERSION,
      analyze: async () => [],
      scope: async () => ({ entries: [] }),
      isTestFile: (file) => file.endsWith('.sh') && file.startsWith('tests/'),
    };
    const scope = scopeOf('tests/check.sh', 'src/calc.sh');
    const weakened = { file: 'tests/check.sh', search: '= 3', replace: '= 3 || true' };
    const alone = await check([weakened], {}, scope, shell);
    expect(!alone.ok && alone.reason).toMatch(
      /^the proposal edits only tests\/check\.sh, which no test reader understands \(the analyzer has no testModel for it\): .* set heal\.allowTestWeakening to accept such edits$/,
    );
    const withCode = await check(
      [weakened, { file: 'src/calc.sh', search: '2', replace: '3' }],
      {},
      scope,
      shell,
    );
    expect(withCode.ok && withCode.unreadTests).toEqual(['tests/check.sh']);
    const allowed = await check([weakened], { allowTestWeakening: true }, scope, shell);
    expect(allowed.ok && allowed.unreadTests).toEqual(['tests/check.sh']);
    // a test file a model reads is not unread
    const py = await check(
      [{ file: 'tests/test_app.py', search: '== 3', replace: '== 2' }],
      {},
      SCOPE,
      lineReader,
    );
    expect(py.ok && py.unreadTests).toEqual([]);
  });

  it('runs the analyzer syntax check', async () => {
    const analyzer: Analyzer = {
      name: 'syntax',
      apiVersion: API_VERSION,
      analyze: async () => [],
      scope: async () => ({ entries: [] }),
      checkSyntax: (_file, content) => (content.includes('def (') ? 'line 1: invalid syntax' : undefined),
    };
    const bad = await check(
      [{ file: 'src/app.py', search: 'def total(xs)', replace: 'def (xs)' }],
      {},
      SCOPE,
      analyzer,
    );
    expect(!bad.ok && bad.reason).toBe('src/app.py would not parse: line 1: invalid syntax');
  });

  it('asks checkTampering about every changed file, code under test first among them, and names the file', async () => {
    const asked: Array<[string, string | undefined, string]> = [];
    const analyzer: Analyzer = {
      name: 'tampering',
      apiVersion: API_VERSION,
      analyze: async () => [],
      scope: async () => ({ entries: [] }),
      checkTampering: (file, before, after) => {
        asked.push([file, before, after]);
        return after.includes('os._exit') && !before?.includes('os._exit')
          ? 'adds os._exit (line 2)'
          : undefined;
      },
    };
    const edits: Edit[] = [
      { file: 'tests/test_app.py', search: '== 3', replace: '== 2' },
      { file: 'src/app.py', search: 'return sum(xs) - 1', replace: 'import os; os._exit(0)' },
    ];
    const refused = await check(edits, {}, SCOPE, analyzer);
    expect(!refused.ok && refused.reason).toBe(
      'tampering edit to src/app.py: adds os._exit (line 2); code may not reach into the test framework or the runner (set heal.allowTestWeakening to allow it)',
    );
    expect(asked.map(([file]) => file)).toEqual(['tests/test_app.py', 'src/app.py']);
    expect(asked[1]![1]).toContain('return sum(xs) - 1');
    expect(asked[1]![2]).toContain('os._exit(0)');
    // allowed: the setting that lets tests be weakened lets this through as well
    const allowed = await check(edits, { allowTestWeakening: true }, SCOPE, analyzer);
    expect(allowed.ok).toBe(true);
    // an unchanged file is never asked about; a fix that adds nothing of the kind passes
    asked.length = 0;
    const fix = await check(
      [{ file: 'src/app.py', search: 'sum(xs) - 1', replace: 'sum(xs)' }],
      {},
      SCOPE,
      analyzer,
    );
    expect(fix.ok).toBe(true);
    expect(asked.map(([file]) => file)).toEqual(['src/app.py']);
  });
});

describe('applyScopePolicy', () => {
  it('keeps allowed files and records every removal with its rule', () => {
    const heal = HealConfigSchema.parse({
      editable: 'source',
      deniedPaths: ['src/vendor/**'],
      allowedPaths: ['src/**', 'tests/**'],
    });
    const scope = applyScopePolicy(
      {
        entries: [
          { file: 'src/app.py', role: 'source', reasons: ['frame 1'] },
          { file: 'tests/test_app.py', role: 'test', reasons: ['the test'] },
          { file: 'src/vendor/lib.py', role: 'source', reasons: ['frame 2'] },
          { file: 'docs/x.py', role: 'source', reasons: ['frame 3'] },
          { file: '.venv/lib/x.py', role: 'source', reasons: ['frame 4'] },
          { file: '../other/x.py', role: 'source', reasons: ['frame 5'] },
        ],
      },
      heal,
    );
    expect(scope.entries.map((e) => e.file)).toEqual(['src/app.py']);
    expect(scope.excluded).toEqual([
      { file: 'tests/test_app.py', reason: 'a test file, and heal.editable is "source"' },
      { file: 'src/vendor/lib.py', reason: 'denied by "src/vendor/**"' },
      { file: 'docs/x.py', reason: 'outside heal.allowedPaths' },
      { file: '.venv/lib/x.py', reason: 'denied by "**/.venv/**"' },
      { file: '../other/x.py', reason: expect.stringContaining('climbs out') },
    ]);
  });
});

describe('normalizeEditPath', () => {
  it('normalizes ./ and backslashes', () => {
    expect(normalizeEditPath('./src//a.py')).toEqual({ ok: true, path: 'src/a.py' });
    expect(normalizeEditPath('src\\a.py')).toEqual({ ok: true, path: 'src/a.py' });
    expect(normalizeEditPath('src/')).toMatchObject({ ok: false });
    expect(normalizeEditPath('')).toMatchObject({ ok: false, reason: 'empty path' });
  });
});
