import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { API_VERSION, defineRunner, runProcess, type DoctorCheck, type Runner } from '@suture/core';
import { checksAnalyzer } from './analyzer.js';
import { ChecksOptionsSchema, type ChecksOptions } from './options.js';
import { readChecks } from './parse.js';
import { runChecks } from './run.js';

export type { ChecksOptions } from './options.js';
export { checksAnalyzer } from './analyzer.js';
export { checksTestModel } from './test-model.js';

/**
 * The checks runner: `checks/*.checks` files hold one test a line, `name: shell command`, and a
 * check passes when its command exits 0. In suture.config.json:
 * `"runner": ["suture-runner-checks", { "shell": "bash" }]`.
 */
export default function checks(options: ChecksOptions = {}): Runner {
  // Options are parsed here, so a wrong one fails when the config loads, naming the config entry.
  const resolved = ChecksOptionsSchema.parse(options);
  return defineRunner({
    name: 'suture-runner-checks',
    apiVersion: API_VERSION,
    language: 'shell',
    supportsSelection: true,
    run: (ctx) => runChecks(resolved, ctx),
    async detect(dir) {
      const { checks: found } = await readChecks(dir, resolved.dir);
      if (found.length === 0) return null;
      return { name: 'checks', reason: `${found.length} checks in ${resolved.dir}/*.checks` };
    },
    analyzer: checksAnalyzer,
    async doctor(root): Promise<DoctorCheck[]> {
      const probe = await runProcess(resolved.shell, ['-c', 'echo ok'], { cwd: root, timeoutMs: 10_000 });
      const folder = await access(join(root, resolved.dir)).then(
        () => true,
        () => false,
      );
      return [
        probe.exitCode === 0
          ? { name: 'shell', status: 'ok', message: `${resolved.shell} runs commands` }
          : {
              name: 'shell',
              status: 'error',
              message: `${resolved.shell} cannot run: ${probe.spawnError ?? probe.output.trim()}`,
              fix: 'install a POSIX shell or set the runner option "shell"',
            },
        folder
          ? { name: 'checks', status: 'ok', message: `${resolved.dir}/ found` }
          : { name: 'checks', status: 'warn', message: `no ${resolved.dir}/ folder in ${root}` },
      ];
    },
  });
}
