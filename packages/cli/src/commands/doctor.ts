import { createGateOptions, isolationChecks, loadConfig } from '@suture/core/internal';
import { type DoctorCheck } from '@suture/core';
import { createLogger } from '../logger.js';

function print(scope: string, c: DoctorCheck): void {
  const mark = c.status === 'ok' ? 'ok   ' : c.status === 'warn' ? 'warn ' : 'ERROR';
  process.stdout.write(
    `${mark} ${scope}: ${c.message}${c.fix && c.status !== 'ok' ? `\n      fix: ${c.fix}` : ''}\n`,
  );
}

/** `suture doctor`: toolchains, plugins and credentials. Exit 1 when something is broken. */
export async function doctorCommand(flags: { config?: string }): Promise<number> {
  const checks: Array<[string, DoctorCheck]> = [];
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  checks.push([
    'node',
    major > 20 || (major === 20 && minor >= 11)
      ? { name: 'node', status: 'ok', message: `Node.js ${process.versions.node}` }
      : {
          name: 'node',
          status: 'error',
          message: `Node.js ${process.versions.node} is too old`,
          fix: 'install Node.js 20.11 or newer',
        },
  ]);
  try {
    const loaded = await loadConfig({ cwd: process.cwd(), ...(flags.config ? { file: flags.config } : {}) });
    checks.push([
      'config',
      {
        name: 'config',
        status: 'ok',
        message: `${loaded.display}: ${loaded.config.projects.length} project(s), ${loaded.config.fixers.length} fixer(s)`,
      },
    ]);
    for (const c of await isolationChecks(loaded.config.workspace, loaded.config.sandbox))
      checks.push(['isolation', c]);
    const options = await createGateOptions(loaded, {
      mode: 'check',
      logger: createLogger(),
      output: { stream: process.stderr, env: process.env },
      reporters: ['json'],
    });
    for (const p of options.projects) {
      checks.push([p.name, { name: 'runner', status: 'ok', message: `${p.runner.name} loaded` }]);
      for (const c of (await p.runner.doctor?.(p.root)) ?? []) checks.push([p.name, c]);
    }
    for (const f of options.fixers) {
      const own = (await f.doctor?.()) ?? [];
      checks.push([f.name, { name: 'fixer', status: 'ok', message: 'loaded' }]);
      for (const c of own) checks.push([f.name, c]);
    }
  } catch (error) {
    checks.push(['config', { name: 'config', status: 'error', message: (error as Error).message }]);
  }
  for (const [scope, c] of checks) print(scope, c);
  const errors = checks.filter(([, c]) => c.status === 'error').length;
  process.stdout.write(errors === 0 ? '\nsuture is ready\n' : `\n${errors} problem(s) found\n`);
  return errors === 0 ? 0 : 1;
}
