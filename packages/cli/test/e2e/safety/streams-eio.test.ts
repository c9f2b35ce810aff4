import { execFile } from 'node:child_process';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireToolchain } from '@suture/core/testing';
import { BIN, cleanEnv, removeDir, tempRepoDir } from '../../harness/cli.mjs';
import { writeFsErrorsFixture } from '../../harness/fs-errors.mjs';

// suture's console on a terminal that goes away mid-run (a closed terminal window, a dropped ssh
// session under nohup): every write after that fails with EIO. The run must not notice.
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await removeDir(d);
});

/**
 * Starts argv with stdin, stdout and stderr on a fresh pty that is not its controlling terminal (so no
 * SIGHUP comes with the hang-up), reads until the first output, closes the master, and prints
 * the child's exit code once it ends, with how many bytes it read.
 */
const PTY = `
import os, subprocess, sys
master, slave = os.openpty()
child = subprocess.Popen(sys.argv[1:], stdin=slave, stdout=slave, stderr=slave, start_new_session=True)
os.close(slave)
seen = b''
while not seen:
    try:
        seen = os.read(master, 4096)
    except OSError:
        break
os.close(master)
print(child.wait(), len(seen))
`;

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('a terminal that goes away', () => {
  it('EIO on stdout and stderr: the run goes on to its end, heals landed, report.json written, lock and journal released', async (t) => {
    requireToolchain(t, { command: 'python3', install: 'apt-get install python3' });
    const dir = await tempRepoDir('eio-');
    dirs.push(dir);
    await writeFsErrorsFixture(dir, { config: { reporters: ['console', 'json'] } });
    // Slow tests, so that most of the run's output comes after the hang-up.
    await writeFile(
      join(dir, 'py/conftest.py'),
      'import time\n\n\ndef pytest_runtest_setup(item):\n    time.sleep(0.5)\n',
    );
    const { CI: _ci, ...env } = cleanEnv();
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        'python3',
        ['-c', PTY, process.execPath, BIN, 'run', '--fix'],
        { cwd: dir, env, timeout: 180_000 },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    const [code, bytes] = out.trim().split(' ').map(Number);
    expect(bytes).toBeGreaterThan(0);
    // 0: both failures healed, as in a run whose terminal stays
    expect(code).toBe(0);
    expect(await readFile(join(dir, 'py/locked/a.py'), 'utf8')).toBe('def a():\n    return 2\n');
    expect(await readFile(join(dir, 'py/app/b.py'), 'utf8')).toBe('def b():\n    return 3\n');
    const [runId] = await readdir(join(dir, '.suture/runs'));
    const report = JSON.parse(await readFile(join(dir, '.suture/runs', runId!, 'report.json'), 'utf8'));
    expect(report.exitCode).toBe(0);
    expect(report.totals.healed).toBe(2);
    expect(report.projects[0].status).toBe('healed');
    expect(await exists(join(dir, '.suture/journal'))).toBe(false);
    expect(await exists(join(dir, '.suture/lock'))).toBe(false);
  });
});
