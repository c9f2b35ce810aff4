import type { DoctorCheck } from '@suture/core';
import { runProcess } from '@suture/core';
import type { ResolvedGoOptions } from './options.js';
import { userGoEnv } from './go-env.js';

const INSTALL =
  'install Go from https://go.dev/dl/ (or `apt-get install golang-go`) and put it on PATH, or set the runner option "go" to its path';

/** Is the go command there, which version, and where are its caches? */
export async function doctorGo(options: ResolvedGoOptions, root: string): Promise<DoctorCheck[]> {
  const proc = await runProcess(options.go, ['version'], {
    cwd: root,
    env: { ...process.env, GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local' },
    timeoutMs: 30_000,
  });
  if (proc.spawnError || proc.exitCode !== 0)
    return [
      {
        name: 'go',
        status: 'error',
        message: `${options.go} cannot run: ${proc.spawnError ?? proc.output.trim().slice(0, 200)}`,
        fix: INSTALL,
      },
    ];
  const checks: DoctorCheck[] = [{ name: 'go', status: 'ok', message: proc.output.trim() }];
  const env = options.shareBuildCache ? await userGoEnv(options.go) : undefined;
  if (options.shareBuildCache)
    checks.push(
      env?.GOCACHE
        ? {
            name: 'go build cache',
            status: 'ok',
            message: `${env.GOCACHE} is shared with the runs under a private layer (read-only without the overlay)`,
          }
        : {
            name: 'go build cache',
            status: 'warn',
            message:
              '`go env GOCACHE` named no build cache: each sandboxed run builds the standard library again',
            fix: 'set GOCACHE to a folder, or check `go env`',
          },
    );
  return checks;
}
