// Hostile proposals: a seeded generator of fixer proposals (absolute paths, "..", symlinks that
// leave the root, denied and out-of-scope paths, case tricks, NUL bytes, huge edits, ambiguous or
// missing search text, edits to the journal and .git, test weakening, malformed answers) fed to
// the real gate (runGate, the journal, check and fix mode) over a repository that sits next to a
// sibling folder its symlinks point into. Everything outside the allowed scope, inside and
// outside the repository, is compared byte for byte at each re-run (right after a patch is
// applied) and after each gate. With a workspace mode (overlay, copy) the patches are validated in a
// private view: the repository must then be untouched at every re-run, and written only by the
// heals a fix-mode gate lands at its end. Shared by the vitest suite and bench/proposal-fuzz.mjs.
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HealConfigSchema } from '../../dist/index.js';
import { runGate } from '../../dist/internal.js';
import { prng, snapshot } from './tree.mjs';

const APP = 'def total(items):\n    return sum(items) - 1\n\n\nx = 1\nx = 1\n';
const UTIL = 'def helper():\n    return 42\n';
const CRLF = 'def f():\r\n    return 1\r\n\r\nvalue = f()';
const TEST =
  'from src.app import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n\n\ndef test_empty():\n    assert total([]) == 0\n';

/**
 * The world: base/sibling (outside the repository, the target of symlinks) and base/repo (the
 * repository and project root) with planted traps.
 */
async function buildWorld(base) {
  const repo = join(base, 'repo');
  const sib = join(base, 'sibling');
  const put = async (rel, content, mode) => {
    await mkdir(join(rel, '..'), { recursive: true });
    await writeFile(rel, content);
    if (mode) await chmod(rel, mode);
  };
  await put(join(sib, 'target.py'), `# outside the repository: never written\n${APP}`);
  await put(join(sib, 'secret.txt'), 'outside the repository\n');
  await put(join(repo, 'src/app.py'), APP);
  await put(join(repo, 'src/util.py'), UTIL, 0o755);
  await put(join(repo, 'src/crlf.py'), CRLF);
  await put(join(repo, 'src/vendor/lib.py'), 'VENDORED = 1\n');
  await put(join(repo, 'tests/test_app.py'), TEST);
  await put(join(repo, 'data.bin'), Buffer.from([0, 1, 2, 255, 0, 10]));
  await put(join(repo, 'README.md'), '# not in scope\n');
  await put(join(repo, 'node_modules/pkg/index.js'), 'module.exports = 1;\n');
  await put(join(repo, '.venv/lib.py'), 'VENV = 1\n');
  await put(join(repo, '.git/config'), '[core]\n\trepositoryformatversion = 0\n');
  await put(join(repo, '.git/HEAD'), 'ref: refs/heads/main\n');
  await put(join(repo, '.suture/keep.txt'), 'the engine never writes here through a proposal\n');
  await symlink('../sibling', join(repo, 'link-out'));
  await symlink('../../sibling/target.py', join(repo, 'src/evil.py'));
  await symlink('../../sibling/missing.py', join(repo, 'src/dangling.py'));
  await symlink('../sibling/no-such-dir', join(repo, 'dlink'));
  await symlink('src', join(repo, 'inner'));
  // links inside the root into denied folders
  await symlink('.git', join(repo, 'gitlink'));
  await symlink('node_modules', join(repo, 'modlink'));
  return { repo, sibling: sib };
}

/** The scope an analyzer hands over: sane entries plus entries a hostile or buggy analyzer could produce. */
const SCOPE_FILES = [
  'gitlink/config',
  'modlink/pkg/index.js',
  'src/app.py',
  'src/util.py',
  'src/crlf.py',
  'tests/test_app.py',
  'data.bin',
  'src/evil.py',
  'src/dangling.py',
  'link-out/target.py',
  'inner/app.py',
  'src/vendor/lib.py',
  '.git/config',
  '../sibling/target.py',
  'README.md',
];
/** Existing real files a patch may legitimately change (before the edit policy's side is applied). */
const WRITABLE = ['src/app.py', 'src/util.py', 'src/crlf.py', 'tests/test_app.py', 'README.md'];
const DENIED_DIRS = ['.git', '.suture', 'node_modules', '.venv', 'venv', '__pycache__', 'build-suture'];

/**
 * Independent oracle: may this path (repository-relative, as found on disk) have changed? Only
 * a writable scope file on the allowed side, or, with allowNewFiles, a file that did not exist,
 * reached without a symbolic link, outside every denied folder.
 */
function mayChange(rel, existedBefore, heal, linkPaths) {
  // the engine's answer for an analyzer without isTestFile: a test file is one its scope names as a test
  const isTest = (file) => SCOPE_FILES.includes(file) && file.startsWith('tests/');
  const side = (file) => (isTest(file) ? heal.editable !== 'source' : heal.editable !== 'tests');
  if (existedBefore) return WRITABLE.includes(rel) && side(rel);
  if (!heal.allowNewFiles) return false;
  const parts = rel.split('/');
  if (parts.some((p) => DENIED_DIRS.includes(p.toLowerCase()))) return false;
  if (rel.toLowerCase().startsWith('src/vendor/')) return false;
  if (linkPaths.some((l) => rel === l || rel.startsWith(`${l}/`))) return false;
  return side(rel);
}

const RUN_STATE = [
  'repo/.suture/runs',
  'repo/.suture/journal',
  'repo/.suture/lock',
  'repo/.suture/procs',
  'repo/.suture/.gitignore',
];

/** Everything under base (both folders), except the engine's own run state. */
const world = (base) => snapshot(base, (rel) => RUN_STATE.includes(rel));

function changes(before, after) {
  const out = [];
  for (const [p, v] of after)
    if (before.get(p) !== v)
      out.push({ path: p, existed: before.has(p) && !before.get(p).startsWith('dir') });
  for (const p of before.keys()) if (!after.has(p)) out.push({ path: p, existed: true, deleted: true });
  return out;
}

// ---------------------------------------------------------------------------------------------
// The generator

const HUGE = 'y'.repeat(1024 * 1024 + 10);

const SANE = [
  'src/app.py',
  'src/util.py',
  'src/crlf.py',
  'tests/test_app.py',
  'src/new_module.py',
  'inner/app.py',
  './src/app.py',
  'src//app.py',
  'src/./app.py',
];

/** Hostile paths by kind; a kind is drawn first so that each guard is exercised often. */
const HOSTILE = (base) => [
  [
    '/etc/passwd',
    `${base}/sibling/target.py`,
    `${base}/repo/src/app.py`,
    'C:\\Windows\\win.ini',
    'c:/x.py',
    '\\\\server\\share\\x.py',
    '\\src\\app.py',
    '~/.bashrc',
  ],
  [
    '../sibling/target.py',
    'src/../../sibling/target.py',
    '..',
    'src/..\\..\\sibling\\target.py',
    'src/../src/app.py',
    '../repo/src/app.py',
    './../sibling/secret.txt',
    'tests/../../x.py',
  ],
  [
    'link-out/target.py',
    'link-out/new.py',
    'link-out/sub/new.py',
    'src/evil.py',
    'src/dangling.py',
    'dlink/new.py',
    'dlink/x/new.py',
    'inner/new.py',
    'inner',
    'LINK-OUT/target.py',
  ],
  [
    'src/vendor/lib.py',
    'src/vendor/new.py',
    'node_modules/pkg/index.js',
    'node_modules/new.js',
    '.venv/lib.py',
    'src/__pycache__/app.cpython-311.pyc',
    'src/VENDOR/lib.py',
    'NODE_MODULES/pkg/index.js',
  ],
  [
    '.git/config',
    '.git/HEAD',
    '.git/hooks/pre-commit',
    'src/.git/config',
    '.GIT/config',
    '.Git/HEAD',
    '.git/new-object',
    'gitlink/config',
    'gitlink/hooks/post-checkout',
    'modlink/pkg/index.js',
    'modlink/new.js',
  ],
  // one file under two names in one proposal
  ['inner/app.py', 'src/app.py', 'inner/util.py', 'src/util.py'],
  [
    '.suture/journal/manifest.json',
    '.suture/lock',
    '.suture/keep.txt',
    '.suture/journal/files/0',
    '.suture/runs/x/report.json',
    '.SUTURE/lock',
    '.Suture/keep.txt',
  ],
  [
    'src/app.py\0.txt',
    'src\0/app.py',
    '\0',
    '',
    '.',
    './',
    'src/',
    'src',
    '//',
    'x'.repeat(2000),
    'src/аpp.py',
    'tests/test_app.py ',
    ' src/app.py',
    'SRC/APP.PY',
    'Src/app.py',
    'Tests/test_app.py',
  ],
  ['README.md', 'data.bin', 'src/deep/er/new.py', 'tests/test_new.py', 'new_top.py'],
];

function pathCase(rng, base) {
  if (rng.chance(0.35)) return rng.pick(SANE);
  return rng.pick(rng.pick(HOSTILE(base)));
}

function editCase(rng, file) {
  const kind = rng.chance(0.25) ? 6 : rng.int(16);
  switch (kind) {
    case 0:
      return { file, search: 'return sum(items) - 1', replace: 'return sum(items)' };
    case 1:
      return { file, search: 'x = 1', replace: 'x = 2' }; // occurs twice in app.py
    case 2:
      return { file, search: 'no such text anywhere', replace: 'z' };
    case 3:
      return { file, search: '', replace: 'prefix' };
    case 4:
      return { file, search: 'return 42', replace: 'return 43' };
    case 5:
      return { file, search: 'return 1\r\n', replace: 'return 2\r\n' };
    case 6:
      return { file, content: '# rewritten\n' };
    case 7:
      return { file, content: rng.chance(0.5) ? HUGE : 'a\0b' };
    case 8:
      return { file, search: 'return sum(items) - 1', replace: rng.chance(0.5) ? HUGE : 'x\0y' };
    case 9:
      return { file, content: '' };
    case 10:
      return { file, search: '    assert total([1, 2]) == 3\n', replace: '    pass\n' }; // removes an assertion
    case 11:
      return { file, search: 'def test_total():', replace: '@pytest.mark.skip\ndef test_total():' };
    case 12:
      return {
        file,
        search: '    assert total([1, 2]) == 3\n',
        replace: '    try:\n        assert total([1, 2]) == 3\n    except AssertionError:\n        pass\n',
      };
    case 13:
      return { file, search: 'def test_empty():\n    assert total([]) == 0\n', replace: '' }; // deletes a test
    case 14:
      return { file, search: 'total([1, 2]) == 3', replace: 'total([1, 2]) == 2' }; // expectation changed
    default:
      return { file, content: `VALUE = ${rng.int(1000)}\n` };
  }
}

/** A fixer answer: mostly edits, sometimes malformed or another verdict. */
export function generateProposal(rng, base) {
  const r = rng.int(40);
  if (r === 0) return { verdict: 'edits', rationale: 'no edits', edits: [] };
  if (r === 1) return { verdict: 'edits', edits: [{ file: 7, search: 1 }] };
  if (r === 2)
    return {
      verdict: 'edits',
      rationale: 'x',
      edits: [{ file: 'src/app.py', search: 'a', replace: 'b', content: 'c' }],
    };
  if (r === 3) return null;
  if (r === 4) return { verdict: 'launch-missiles' };
  if (r === 5) return new Error('the fixer crashed');
  if (r === 6) return { verdict: 'unfixable', diagnosis: 'cannot' };
  const n = rng.chance(0.5) ? 1 : 1 + rng.int(rng.chance(0.2) ? 7 : 3);
  const edits = [];
  for (let i = 0; i < n; i++) edits.push(editCase(rng, pathCase(rng, base)));
  return { verdict: 'edits', rationale: 'fuzzed', edits };
}

// ---------------------------------------------------------------------------------------------
// The gate under fuzz

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const REFUSING = new Set(['refused', 'fixer-error']);

/**
 * Runs proposals through gates until `proposals` have been asked for. Returns the counts and
 * the first violations (each with the seed and the case that caused it).
 */
export async function runProposalFuzz({ proposals, seed, workspace = 'in-place', onGate = () => undefined }) {
  const rng = prng(seed);
  const base = await mkdtemp(join(tmpdir(), 'suture-fuzz-'));
  const pristine = join(base, 'pristine');
  await mkdir(pristine);
  await buildWorld(pristine);
  const work = join(base, 'w');
  const summary = {
    seed,
    proposals: 0,
    gates: 0,
    applied: 0,
    healed: 0,
    /** @type {Record<string, number>} */
    verdicts: {},
    refusalsWithoutReason: 0,
    writesOutsideScope: 0,
    treeNotRestored: 0,
    /** Files of the repository changed while a patch was under validation in a private view (must be 0). */
    writtenBeforeEnd: 0,
    internalErrors: 0,
    workspace,
    reasons: new Map(),
    violations: [],
  };
  const violation = (what, detail) => {
    if (summary.violations.length < 20) summary.violations.push({ seed, gate: summary.gates, what, detail });
  };
  try {
    while (summary.proposals < proposals) {
      await rm(work, { recursive: true, force: true });
      execFileSync('cp', ['-a', pristine, work]);
      const repo = join(work, 'repo');
      const before = await world(work);
      const linkPaths = [...before]
        .filter(([, v]) => v.startsWith('link'))
        .map(([p]) => p.replace(/^repo\//, ''));
      const heal = HealConfigSchema.parse({
        maxAttempts: 1 + rng.int(8),
        editable: rng.pick(['both', 'both', 'source', 'tests']),
        deniedPaths: ['src/vendor/**'],
        allowNewFiles: rng.chance(0.5),
        allowTestWeakening: rng.chance(0.2),
        maxFilesPerAttempt: 1 + rng.int(5),
        flakyReruns: 0,
        regression: rng.chance(0.5),
      });
      const mode = rng.chance(0.3) ? 'fix' : 'check';
      const failures = 1 + rng.int(4);
      const asked = [];
      const checkNow = async (when) => {
        const now = await world(work);
        const changed = changes(before, now);
        const rel = (c) => (c.path.startsWith('repo/') ? c.path.slice(5) : undefined);
        const isDir = (c) => now.get(c.path)?.startsWith('dir');
        const allowedFiles = changed
          .filter(
            (c) =>
              !isDir(c) &&
              rel(c) !== undefined &&
              !c.deleted &&
              mayChange(rel(c), c.existed, heal, linkPaths),
          )
          .map(rel);
        for (const c of changed) {
          // A folder made for an allowed new file is part of that write.
          if (
            isDir(c) &&
            !c.existed &&
            rel(c) !== undefined &&
            allowedFiles.some((f) => f.startsWith(`${rel(c)}/`))
          )
            continue;
          if (!allowedFiles.includes(rel(c)) || c.deleted) {
            summary.writesOutsideScope++;
            violation(`write outside the scope ${when}: ${c.path}`, { heal, mode, asked: asked.slice(-3) });
          }
        }
      };
      let runs = 0;
      const runner = {
        name: 'fuzz-runner',
        apiVersion: 1,
        language: 'python',
        supportsSelection: true,
        async run(ctx) {
          runs++;
          const ids = Array.from({ length: failures }, (_, i) => `tests/test_app.py::test_${i}`);
          if (ctx.selection) {
            await checkNow('after a patch was applied');
            if (workspace !== 'in-place') {
              const now = changes(before, await world(work));
              if (now.length > 0) {
                summary.writtenBeforeEnd += now.length;
                violation(
                  `the repository was written while a patch was validated in the workspace: ${now.map((c) => c.path).join(', ')}`,
                  {
                    heal,
                    mode,
                    asked: asked.slice(-3),
                  },
                );
              }
            }
            const pass = rng.chance(0.25);
            return {
              status: pass ? 'passed' : 'failed',
              tests: ctx.selection.map((id) => ({
                id,
                name: id,
                status: pass ? 'passed' : 'failed',
                message: 'fuzz',
              })),
              exitCode: pass ? 0 : 1,
              command: 'fuzz',
              durationMs: 1,
              selected: true,
            };
          }
          const tests = [
            ...ids.map((id) => ({ id, name: id, status: 'failed', message: 'boom' })),
            { id: 'tests/test_app.py::test_ok', name: 'ok', status: 'passed' },
          ];
          return { status: 'failed', tests, exitCode: 1, command: 'fuzz', durationMs: 1 };
        },
      };
      const analyzer = {
        name: 'fuzz-analyzer',
        apiVersion: 1,
        async analyze(result) {
          // a new fingerprint every run: the engine never stops a failure early for repeating itself
          return result.tests
            .filter((t) => t.status === 'failed')
            .map((t) => ({
              id: t.id,
              kind: 'assertion',
              title: t.id,
              tests: [t.id],
              evidence: 'boom',
              fingerprint: `${t.id}#${runs}`,
              repairable: true,
            }));
        },
        async scope() {
          return {
            entries: SCOPE_FILES.map((file) => ({
              file,
              role: file.startsWith('tests/') ? 'test' : 'source',
              reasons: ['fuzz'],
              depth: 0,
              symbols: [],
            })),
            excluded: [],
          };
        },
      };
      const fixer = (name) => ({
        name,
        apiVersion: 1,
        async propose() {
          summary.proposals++;
          const p = generateProposal(rng, work);
          asked.push(
            p instanceof Error
              ? String(p)
              : JSON.stringify(p, (k, v) =>
                  typeof v === 'string' && v.length > 200 ? `${v.slice(0, 40)}...(${v.length})` : v,
                ),
          );
          if (p instanceof Error) throw p;
          return p;
        },
      });
      const report = await runGate({
        root: repo,
        outputDir: join(repo, '.suture', 'runs'),
        mode,
        projects: [{ name: 'fuzz', root: repo, runner, analyzer, timeoutMs: 60_000, heal }],
        fixers: [fixer('fuzz-a'), fixer('fuzz-b'), fixer('fuzz-c')],
        reporters: [],
        concurrency: 1,
        logger: silent,
        workspace,
        sandbox: workspace === 'in-place' ? 'off' : 'auto',
      });
      summary.gates++;
      const broken = report.projects.find((p) => p.error?.startsWith('suture could not gate'));
      if (broken) {
        summary.internalErrors++;
        violation(`a project failed inside the engine: ${broken.error}`, {
          heal,
          mode,
          asked: asked.slice(-3),
        });
      }
      if (report.error) {
        summary.internalErrors++;
        violation(`internal error: ${report.error}`, { heal, mode, asked: asked.slice(-3) });
      }
      for (const f of report.projects.flatMap((p) => p.failures)) {
        if (f.outcome === 'healed') summary.healed++;
        for (const a of f.attempts) {
          summary.verdicts[a.verdict] = (summary.verdicts[a.verdict] ?? 0) + 1;
          if (a.diff) summary.applied++;
          if (REFUSING.has(a.verdict)) {
            if (!a.reason || !a.reason.trim()) {
              summary.refusalsWithoutReason++;
              violation('a refusal without a reason', { attempt: a });
            } else {
              const key = a.reason
                .replace(/^edit \d+: /, '')
                .replace(/"[^"]*"|\S*\/\S*|\d+/g, '…')
                .slice(0, 70);
              summary.reasons.set(key, (summary.reasons.get(key) ?? 0) + 1);
            }
          }
        }
      }
      const after = await world(work);
      if (mode === 'check') {
        const left = changes(before, after);
        if (left.length > 0) {
          summary.treeNotRestored++;
          violation(`check mode left changes: ${left.map((c) => c.path).join(', ')}`, {
            heal,
            asked: asked.slice(-3),
          });
        }
      }
      await checkNow('after the gate');
      onGate(summary);
    }
  } finally {
    if (summary.violations.length === 0) await rm(base, { recursive: true, force: true });
    else summary.keptAt = base;
  }
  return summary;
}
