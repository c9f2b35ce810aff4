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
 * `unshare`'s options for a PID namespace of its own (with its /proc where allowed), as the
 * user's own uid and gid, up to the program its first process runs.
 */
function pidNamespaceOptions(options: Omit<JoinOptions, 'holder' | 'network'>): string[] {
  return [
    '--user',
    `--map-user=${options.uid}`,
    `--map-group=${options.gid}`,
    '--pid',
    '--fork',
    '--kill-child',
    ...(options.procMount ? ['--mount-proc'] : []),
    '--',
  ];
}

/**
 * `nsenter`'s options that join the user, mount (and network) namespaces of process `target`,
 * and `extra` namespaces, up to the program it runs.
 */
function enterOptions(target: number, network: boolean, extra: readonly string[] = []): string[] {
  return [
    `--target=${target}`,
    '--user',
    '--mount',
    ...(network ? ['--net'] : []),
    ...extra,
    // Entering as the namespace's root (uid 0 there is the user) without setgroups, which an
    // unprivileged user may not call.
    '--preserve-credentials',
    '--',
  ];
}

/**
 * `nsenter` into a holder's namespaces, then `unshare` of a PID namespace of their own: the
 * command line up to the program its first process runs.
 */
function intoPidNamespace(tools: SandboxTools, options: JoinOptions): string[] {
  return [...enterOptions(options.holder, options.network), tools.unshare, ...pidNamespaceOptions(options)];
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
    args: [...intoPidNamespace(tools, options), tools.sh, '-c', INIT, 'suture-init', cwd, file, ...args],
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
    args: [...pidNamespaceOptions(options), tools.sh, '-c', INIT, 'suture-init', cwd, file, ...args],
  };
}

/**
 * The first process of a run's PID namespace when the run's commands join it one after another
 * (`runSpaceCommand` below): it says it is up with one line, then waits for its stdin to close.
 * When it exits, the kernel kills every process left in the namespace.
 */
const SPACE_INIT = 'echo up; read -r _';

/**
 * The command line of a run's space: a PID namespace (with its own /proc where allowed) inside a
 * holder's namespaces, as the user's own uid and gid, that the run's commands join. Its pid (the
 * `unshare` that made it) is what `runSpaceCommand` targets.
 */
export function spaceCommand(tools: SandboxTools, options: JoinOptions): { file: string; args: string[] } {
  return { file: tools.nsenter, args: [...intoPidNamespace(tools, options), tools.sh, '-c', SPACE_INIT] };
}

/**
 * The command line that runs `file args` in `cwd` inside a run's space (see `spaceCommand`),
 * whose `unshare` is `space`. A joined command is not its namespace's first process, so it has
 * the signals and exit status it has outside; `nsenter` dies of the signal its command died of.
 * The folder is entered by a shell inside: `nsenter --wd` would open it outside the view.
 */
export function runSpaceCommand(
  tools: SandboxTools,
  space: { pid: number; network: boolean },
  cwd: string,
  file: string,
  args: readonly string[],
): { file: string; args: string[] } {
  return {
    file: tools.nsenter,
    args: [
      ...enterOptions(space.pid, space.network, [`--pid=/proc/${space.pid}/ns/pid_for_children`]),
      tools.sh,
      '-c',
      'cd -- "$1" || exit 126; shift; exec "$@"',
      'suture-run',
      cwd,
      file,
      ...args,
    ],
  };
}
