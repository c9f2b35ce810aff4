import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const NX = join(REPO, 'node_modules/nx/dist/bin/nx.js');

export interface NxResult {
  code: number | null;
  output: string;
}

/** This process's environment without what an enclosing nx task or npm script set for it. */
function outsideEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(NX_|npm_)/i.test(k) && k !== 'FORCE_COLOR'),
  );
}

/** Runs this repository's nx in a workspace: no daemon, no cloud, the workspace's own local cache. */
export function nx(cwd: string, args: string[]): NxResult {
  const r = spawnSync(process.execPath, [NX, ...args, '--outputStyle=static'], {
    cwd,
    encoding: 'utf8',
    env: {
      ...outsideEnv(),
      NX_DAEMON: 'false',
      NX_NO_CLOUD: 'true',
      NX_TUI: 'false',
      CI: '1',
    },
    timeout: 600_000,
  });
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

export function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

export async function write(dir: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

/**
 * An Nx workspace in a temp folder outside this repository, committed in git: node_modules is a
 * link to this repository's (nx, jest and the @suture packages), nx.json loads @suture/nx.
 */
export async function nxWorkspace(files: Record<string, string>, config: unknown): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'suture-nx-'));
  await symlink(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  await write(dir, {
    'package.json': JSON.stringify({ name: 'nx-gate', private: true }),
    'nx.json': JSON.stringify({
      plugins: ['@suture/nx'],
      namedInputs: { default: ['{projectRoot}/**/*'] },
    }),
    '.gitignore': 'node_modules\n.nx\n.suture\n__pycache__\n',
    'suture.config.json': JSON.stringify(config, null, 2),
    ...files,
  });
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '.']);
  git(dir, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init']);
  return dir;
}
