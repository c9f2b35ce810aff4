import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { recordProcessGroup } from '../process/process-groups.js';
import { spaceCommand, type JoinOptions } from './command.js';
import type { SandboxTools } from './tools.js';

/**
 * A run's PID namespace inside a holder's namespaces: the run's commands join it (one `nsenter`
 * each, rather than a namespace of their own each), and when it ends the kernel kills every
 * process left in it, setsid'd and daemonised ones included.
 */
export interface RunSpace {
  /** The `unshare` that made the namespace, which commands target to join it. */
  readonly pid: number | undefined;
  /** Resolves once the namespace is up; rejects with the reason it could not be made. */
  readonly ready: Promise<void>;
  /**
   * Whether nothing runs in the space but its first process, once the commands that joined it
   * have exited: what they left running is that process's child then (it adopts orphans).
   * False when that cannot be read.
   */
  idle(): Promise<boolean>;
  /** Ends the space (once, however often called); resolves once every process in it is gone. */
  close(): Promise<void>;
}

/** How long a space's init may take to leave once told to, before its group is killed. */
const CLOSE_GRACE_MS = 2000;

export function startRunSpace(tools: SandboxTools, options: JoinOptions): RunSpace {
  const cmd = spaceCommand(tools, options);
  const child = spawn(cmd.file, cmd.args, {
    cwd: '/',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C' },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  // `suture recover` ends a space a killed run left, and every process in it with it
  const forget = child.pid !== undefined ? recordProcessGroup(child.pid, 'suture run space') : undefined;
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    if (stderr.length < 4096) stderr += c.toString();
  });
  child.stdin!.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      forget?.();
      resolve();
    });
    child.once('error', () => resolve());
  });
  /** The space's first process, the child of `unshare`, as this machine's /proc numbers it. */
  let init: string | undefined;
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', () => {
      const pid = String(child.pid);
      void readFile(`/proc/${pid}/task/${pid}/children`, 'utf8')
        .then((text) => (init = text.trim() || undefined))
        .catch(() => undefined)
        .finally(resolve);
    });
    void exited.then(() =>
      reject(
        new Error(
          `the run's PID namespace could not be made: ${stderr.trim() || 'its first process exited'}`,
        ),
      ),
    );
  });
  ready.catch(() => undefined);
  const kill = (): void => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  };
  let closing: Promise<void> | undefined;
  return {
    pid: child.pid,
    ready,
    async idle() {
      if (!init || closing || child.exitCode !== null || child.signalCode !== null) return false;
      const children = await readFile(`/proc/${init}/task/${init}/children`, 'utf8').catch(() => undefined);
      return children !== undefined && children.trim() === '';
    },
    close() {
      // Its init leaves once its stdin closes (at once when it is still starting), and `unshare`,
      // which waits for it, once the kernel has killed what was left in the namespace: nothing is
      // orphaned to the machine's init. A space that does not leave is killed.
      closing ??= (async () => {
        child.stdin!.end();
        const timer = setTimeout(kill, CLOSE_GRACE_MS);
        await exited;
        clearTimeout(timer);
      })();
      return closing;
    },
  };
}
