import { ConfigError } from '../../api/errors.js';
import type { DoctorCheck } from '../../api/plugin.js';
import { planIsolation, supportFor } from './open-workspace.js';
import type { SandboxChoice, WorkspaceChoice } from './types.js';

/** `suture doctor`'s lines on isolation: the workspace mode and the sandbox a run would get here. */
export async function isolationChecks(
  workspace: WorkspaceChoice,
  sandbox: SandboxChoice,
  env: NodeJS.ProcessEnv = process.env,
): Promise<DoctorCheck[]> {
  const support = await supportFor(workspace, sandbox, env);
  let plan;
  try {
    plan = planIsolation(workspace, sandbox, support);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return [
      {
        name: 'isolation',
        status: 'error',
        message: error.message,
        fix: `change "${error.keyPath}" in the config`,
      },
    ];
  }
  const where = {
    overlay: 'overlay: patches are validated in a copy-on-write view of each project, in a private namespace',
    copy: 'copy: patches are validated in a private copy of each project, kept in sync',
    'in-place': 'in place: patches are validated in the working tree, through the journal',
  }[plan.mode];
  const confined = plan.sandboxOn
    ? [
        support.network ? 'no network but its own loopback' : 'the machine network (ip missing)',
        'an environment allowlist',
        support.readOnly ? 'read-only outside the workspace' : 'some mounts writable',
        'every process ended with its run',
      ].join(', ')
    : plan.envOnly
      ? 'an environment allowlist only (no namespaces here)'
      : 'none (sandbox "off")';
  const weaker = plan.notes.length > 0 || (plan.sandboxOn && (!support.network || !support.readOnly));
  return [
    { name: 'workspace', status: plan.notes.some((n) => n.includes('copy')) ? 'warn' : 'ok', message: where },
    {
      name: 'sandbox',
      status: weaker || sandbox === 'off' ? 'warn' : 'ok',
      message: `runs of patched code get ${confined}`,
      ...(weaker
        ? { fix: support.reasons.join('; ') }
        : sandbox === 'off'
          ? { fix: 'set "sandbox" to "auto"' }
          : {}),
    },
  ];
}
