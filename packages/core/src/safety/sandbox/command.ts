import type { SandboxTools } from './tools.js';

/**
 * The first process of a run's PID namespace: it starts the command as its child and waits for
 * it. When it exits, the kernel kills every process left in the namespace, setsid'd and
 * daemonised ones included, so nothing the run started outlives it. Being the namespace's init
 * it ignores the group's SIGTERM, which reaches the command itself. It reports a death by
 * signal as 128 + n. The command keeps suture's stdin (an asynchronous list's would be /dev/null).
 */
const INIT = 'cd -- "$1" || exit 126; shift; exec 3<&0; "$@" <&3 3<&- & c=$!; wait "$c"; exit $?';

export interface JoinOptions {
  /** The holder whose user, mount (and network) namespaces the command joins. */
  holder: number;
  network: boolean;
  /** The ids the command runs as: the user's own, not the namespace's root. */
  uid: number;
  gid: number;
  /** Mount a /proc of the run's own PID namespace (refused in some containers). */
  procMount: boolean;
}

/**
 * The command line that runs `file args` in `cwd` inside a holder's namespaces, in a PID
 * namespace of its own, as the user's own uid and gid.
 */
export function joinCommand(
  tools: SandboxTools,
  options: JoinOptions,
  cwd: string,
  file: string,
  args: readonly string[],
): { file: string; args: string[] } {
  return {
    file: tools.nsenter,
    args: [
      `--target=${options.holder}`,
      '--user',
      '--mount',
      ...(options.network ? ['--net'] : []),
      // Entering as the namespace's root (uid 0 there is the user) without setgroups, which an
      // unprivileged user may not call.
      '--preserve-credentials',
      '--',
      tools.unshare,
      '--user',
      `--map-user=${options.uid}`,
      `--map-group=${options.gid}`,
      '--pid',
      '--fork',
      '--kill-child',
      ...(options.procMount ? ['--mount-proc'] : []),
      '--',
      tools.sh,
      '-c',
      INIT,
      'suture-init',
      cwd,
      file,
      ...args,
    ],
  };
}

/**
 * The command line of a run in a PID namespace of its own without any other sandbox (no holder):
 * every process it starts still ends with it.
 */
export function pidNamespaceCommand(
  tools: SandboxTools,
  options: Omit<JoinOptions, 'holder' | 'network'>,
  cwd: string,
  file: string,
  args: readonly string[],
): { file: string; args: string[] } {
  return {
    file: tools.unshare,
    args: [
      '--user',
      `--map-user=${options.uid}`,
      `--map-group=${options.gid}`,
      '--pid',
      '--fork',
      '--kill-child',
      ...(options.procMount ? ['--mount-proc'] : []),
      '--',
      tools.sh,
      '-c',
      INIT,
      'suture-init',
      cwd,
      file,
      ...args,
    ],
  };
}
