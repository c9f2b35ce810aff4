import { runProcess, type DoctorCheck } from '@suture/core';
import type { ResolvedCargoOptions } from './options.js';
import { INSTALL_RUST } from './run.js';

/** cargo and rustc as the runs find them (rustup's proxies included), and nextest when installed. */
export async function doctorCargo(options: ResolvedCargoOptions, root: string): Promise<DoctorCheck[]> {
  const env = { ...process.env, ...options.env } as Record<string, string>;
  const cargo = await runProcess(options.cargo, ['--version'], { cwd: root, env, timeoutMs: 30_000 });
  if (cargo.spawnError || cargo.exitCode !== 0)
    return [
      {
        name: 'cargo',
        status: 'error',
        message: `${options.cargo} not found${cargo.spawnError ? '' : `: ${cargo.output.trim().split('\n')[0]}`}`,
        fix: INSTALL_RUST,
      },
    ];
  const checks: DoctorCheck[] = [
    { name: 'cargo', status: 'ok', message: cargo.output.trim().split('\n')[0] ?? 'cargo' },
  ];
  const rustc = await runProcess('rustc', ['--version'], { cwd: root, env, timeoutMs: 30_000 });
  checks.push(
    rustc.exitCode === 0
      ? { name: 'rustc', status: 'ok', message: rustc.output.trim() }
      : {
          name: 'rustc',
          status: 'error',
          message: `rustc does not run: ${rustc.spawnError ?? rustc.output.trim().split('\n')[0]}`,
          fix: 'rustup default stable',
        },
  );
  return checks;
}
