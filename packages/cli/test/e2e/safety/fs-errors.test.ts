import { spawn } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SkippableTest } from '@suture/core/testing';
import { requireIsolation } from '../../../../core/src/safety/workspace/isolation.test-support.js';
import { BIN, cleanEnv, removeDir, tempRepoDir } from '../../harness/cli.mjs';
import { writeFsErrorsFixture } from '../../harness/fs-errors.mjs';

// `suture run --fix` on a real pytest project whose folder py/locked meets a real filesystem
// error: a full disk, a read-only mount, a folder without write permission, a file another user
// owns in a sticky folder. The fix of `a` (in py/locked) fails with the reason in report.json,
// the fix of `b` (in py/app) still heals and lands, and nothing is left behind.
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await removeDir(d);
});

interface Outcome {
  code: number | null;
  stderr: string;
  report: Report;
  /** py/locked/a.py as it was in the namespace after the run (a tmpfs there is gone after it). */
  a: string;
  /** Temp files of atomic writes left in the project, looked for in the namespace. */
  leftovers: string[];
}

interface Report {
  runId: string;
  error?: string;
  exitCode: number;
  conflicts: { file: string; reason: string }[];
  isolation: { workspace: string; notes: string[] };
  projects: {
    status: string;
    failures: {
      outcome: string;
      failure: { tests: string[] };
      attempts: { verdict: string; reason?: string }[];
    }[];
  }[];
}

/** Runs a shell command in `dir` (as this process's user). */
function sh(dir: string, command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd: dir, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}`))));
  });
}

/**
 * Runs `suture run --fix --json` in `dir` after `setup`, inside a private user and mount
 * namespace (unless `namespace` is false), where `setup` may mount what it likes.
 */
function runInNamespace(dir: string, setup: string, { namespace = true } = {}): Promise<Outcome> {
  const script = [
    'set -e',
    setup,
    'set +e',
    '"$0" "$@"',
    'code=$?',
    "find py -name '*.suture-tmp-*' -printf 'leftover %p\\n' >&2",
    "printf 'a.py %s\\n' \"$(tr '\\n' '|' < py/locked/a.py | head -c 200)\" >&2",
    'exit $code',
  ].join('\n');
  const unshare = namespace ? ['unshare', '--user', '--map-root-user', '--mount'] : [];
  const argv = [...unshare, 'sh', '-c', script, process.execPath, BIN, 'run', '--fix', '--json'];
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: dir,
      env: cleanEnv(),
      timeout: 150_000,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = stderr.split('\n');
      let report: Report;
      try {
        report = JSON.parse(stdout) as Report;
      } catch {
        reject(new Error(`suture printed no JSON report (exit ${code}): ${stderr.slice(-4000)}`));
        return;
      }
      resolve({
        code,
        stderr,
        report,
        a: lines.find((l) => l.startsWith('a.py '))?.slice(5) ?? '',
        leftovers: lines.filter((l) => l.startsWith('leftover ')),
      });
    });
  });
}

/** Files owned by another user can be made only by root (CI runs as root). */
function requireRoot(t: SkippableTest): void {
  if (process.getuid?.() === 0) return;
  // not a toolchain a machine can install: a run as another user skips it even where every
  // toolchain is required
  const why = 'a file owned by another user can be made only as root';
  process.stderr.write(`skipped: ${why}\n`);
  t.skip(why);
}

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

/** What every case must show: a's fix failed with `reason`, b's landed, the report whole, nothing left. */
async function expectContained(dir: string, r: Outcome, reason: RegExp): Promise<void> {
  expect(r.code, r.stderr).toBe(1);
  const report = r.report;
  expect(report.error).toBeUndefined();
  expect(report.exitCode).toBe(1);
  // the report on disk is the whole report, as printed
  const saved = JSON.parse(await readFile(join(dir, '.suture/runs', report.runId, 'report.json'), 'utf8'));
  expect(saved).toEqual(report);
  const [project] = report.projects;
  expect(project!.failures).toHaveLength(2);
  const b = project!.failures.find((f) => f.failure.tests.includes('test_b.py::test_b'))!;
  expect(b.outcome).toBe('healed');
  expect(await readFile(join(dir, 'py/app/b.py'), 'utf8')).toBe('def b():\n    return 3\n');
  // a's fix was either refused in the workspace or not landed, and the report says why
  const reasons = [
    ...project!.failures.flatMap((f) => f.attempts.map((a) => a.reason ?? '')),
    ...report.conflicts.filter((c) => c.file === 'py/locked/a.py').map((c) => c.reason),
  ];
  expect(
    reasons.filter((x) => reason.test(x)),
    JSON.stringify(reasons),
  ).not.toEqual([]);
  // a reason names the user's file, never a temp file of suture's
  expect(reasons.filter((x) => x.includes('suture-tmp'))).toEqual([]);
  expect(r.a).toBe('def a():|    return 1|');
  expect(r.leftovers).toEqual([]);
  expect(await exists(join(dir, '.suture/journal'))).toBe(false);
  expect(await exists(join(dir, '.suture/lock'))).toBe(false);
}

async function fixture(options: Parameters<typeof writeFsErrorsFixture>[1] = {}): Promise<string> {
  const dir = await tempRepoDir('fs-errors-');
  dirs.push(dir);
  await writeFsErrorsFixture(dir, options);
  return dir;
}

describe('a project holding a mount point', { timeout: 180_000 }, () => {
  it('is healed in place with the sandbox on: the sandbox carries the mount along, writable', async (t) => {
    await requireIsolation(t);
    const dir = await fixture({ config: { workspace: 'in-place', sandbox: 'strict' } });
    // a test that writes into the mounted folder, as a test's scratch files do
    await sh(
      dir,
      'printf \'def test_scratch():\\n    open("locked/scratch.txt", "w").write("x")\\n\' > py/test_scratch.py',
    );
    const r = await runInNamespace(
      dir,
      'cp -a py/locked .seed && mount -t tmpfs -o size=4m tmpfs py/locked && cp -a .seed/. py/locked/ && rm -rf .seed',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.report.isolation.workspace).toBe('in-place');
    const [project] = r.report.projects;
    expect(project!.failures.map((f) => f.outcome)).toEqual(['healed', 'healed']);
    expect(r.a).toBe('def a():|    return 2|');
    expect(r.leftovers).toEqual([]);
  });
});

describe('a filesystem error under `suture run --fix`', { timeout: 180_000 }, () => {
  it('ENOSPC: a heal larger than the free space of a full tmpfs is not landed, with the reason; the other heal lands', async (t) => {
    await requireIsolation(t);
    const dir = await fixture({ padBytes: 800_000 });
    const r = await runInNamespace(
      dir,
      'cp -a py/locked .seed && mount -t tmpfs -o size=512k tmpfs py/locked && cp -a .seed/. py/locked/ && rm -rf .seed',
    );
    await expectContained(dir, r, /a\.py: ENOSPC \(no space left on the device\)/);
    expect(r.report.conflicts.map((c) => c.file)).toEqual(['py/locked/a.py']);
    // an overlay cannot show a mounted folder: a private copy validates instead, and the report says so
    expect(r.report.isolation.workspace).toBe('copy');
    expect(r.report.isolation.notes.join('\n')).toMatch(/holds mount points \(locked\)/);
  });

  it('EROFS: a heal of a folder mounted read-only is not landed, with the reason; the other heal lands', async (t) => {
    await requireIsolation(t);
    const dir = await fixture();
    const r = await runInNamespace(
      dir,
      'mount --bind py/locked py/locked && mount -o remount,bind,ro py/locked',
    );
    await expectContained(dir, r, /a\.py: EROFS \(read-only file system\)/);
    expect(r.report.conflicts.map((c) => c.file)).toEqual(['py/locked/a.py']);
  });

  it('EACCES: a fix in a folder without write permission fails with the reason; the other heal lands', async (t) => {
    await requireIsolation(t, { overlay: true });
    const dir = await fixture();
    const root = process.getuid?.() === 0;
    // Root writes wherever its namespace maps the owner: the folder is given to a user it does not
    // map, and the view refuses the write. Another user's suture writes its own folder in the view
    // and is refused when the heal lands.
    await sh(dir, `${root ? 'chown -R 12345:12345 py/locked && ' : ''}chmod 0555 py/locked`);
    const r = await runInNamespace(dir, 'true', { namespace: root });
    await sh(dir, 'chmod 0755 py/locked');
    await expectContained(dir, r, /py\/locked\/.*EACCES \(permission denied\)/);
  });

  it('EPERM: a heal of a file another user owns in a sticky folder is not landed, with the reason; the other heal lands', async (t) => {
    await requireIsolation(t);
    requireRoot(t);
    // A private copy validates it (an overlay cannot copy up a file of an unmapped owner, see below);
    // the rename over the other user's file in a sticky folder is refused when the heal lands.
    const dir = await fixture({ config: { workspace: 'copy' } });
    await sh(dir, 'chown -R 12345:12345 py/locked && chmod 1777 py/locked');
    const r = await runInNamespace(dir, 'true');
    await expectContained(dir, r, /a\.py: EPERM \(operation not permitted/);
    expect(r.report.conflicts.map((c) => c.file)).toEqual(['py/locked/a.py']);
  });

  it('EOVERFLOW: in an overlay view, a fix of a file whose owner the view cannot map is refused with the reason; the other heal lands', async (t) => {
    await requireIsolation(t, { overlay: true });
    requireRoot(t);
    const dir = await fixture();
    await sh(dir, 'chown -R 12345:12345 py/locked && chmod 1777 py/locked');
    const r = await runInNamespace(dir, 'true');
    await expectContained(dir, r, /EOVERFLOW \(owned by a user the workspace cannot map\)/);
    expect(r.report.isolation.workspace).toBe('overlay');
    const a = r.report.projects[0]!.failures.find((f) => f.failure.tests.includes('test_a.py::test_a'))!;
    expect(a.attempts.map((x) => x.verdict)).toEqual(['refused']);
  });
});
