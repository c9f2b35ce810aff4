import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { recordProcessGroup } from '../process/process-groups.js';
import { AGENT_SOURCE } from './agent-source.js';
import type { SandboxTools } from './tools.js';

/** One step of a holder's setup, done in order by the agent before it says it is ready. */
export type SetupOp =
  | { op: 'loopback'; ip: string }
  /** Binds the real `src` at `dst` before anything covers it, so the view can still reach it. */
  | { op: 'stash'; src: string; dst: string }
  | { op: 'read-only' }
  | { op: 'bind'; src: string; dst: string }
  | { op: 'overlay'; lower: string; upper: string; work: string; target: string }
  | { op: 'tmpfs'; target: string; size: string };

export interface HolderFacts {
  /** A private network namespace with its loopback up. */
  network: boolean;
  /** Every mount outside the writable folders was made read-only... */
  readOnly: boolean;
  /** ...but these, which refused. */
  readOnlyFailures: string[];
}

/**
 * The process that holds a sandbox's namespaces (user, mount, network) for the length of a
 * workspace: runs join them (nsenter), and its agent reads and writes the view for the engine.
 */
export interface Holder {
  readonly pid: number;
  readonly facts: HolderFacts;
  readonly notes: string[];
  /** Whether the holder created a network namespace of its own. */
  readonly ownNetwork: boolean;
  request<T>(op: string, args?: Record<string, unknown>): Promise<T>;
  /** Ends the holder; the namespaces go once the last process in them has exited. */
  close(): Promise<void>;
}

export class HolderError extends Error {
  override name = 'HolderError';
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** A holder whose agent is starting and waits for the setup it is to do. */
export interface PendingHolder {
  /** The holder's process (its group's id), while it runs. */
  readonly pid: number | undefined;
  /** Sends the setup and waits for the agent to have done it; rejects as `startHolder` does. */
  setup(ops: readonly SetupOp[]): Promise<Holder>;
  /** Ends a holder that will not be set up (what was to be mounted could not be planned). */
  abandon(): Promise<void>;
}

/**
 * Starts a holder: `unshare` makes the namespaces with the current user as their root, the agent
 * does `ops` and serves requests. Rejects with the setup's own error when a step fails. Its
 * process group is recorded, so `suture recover` ends a holder a killed run left.
 */
export function startHolder(
  tools: SandboxTools,
  ops: readonly SetupOp[],
  options: { network: boolean },
): Promise<Holder> {
  return spawnHolder(tools, options).setup(ops);
}

/**
 * Starts a holder's processes before its setup is known: Node's start, most of a holder's cost,
 * then overlaps the work that decides what to mount.
 */
export function spawnHolder(tools: SandboxTools, options: { network: boolean }): PendingHolder {
  const args = [
    '--user',
    '--map-root-user',
    '--mount',
    ...(options.network ? ['--net'] : []),
    '--',
    process.execPath,
    '--input-type=module',
    '-e',
    AGENT_SOURCE,
  ];
  const child = spawn(tools.unshare, args, {
    // The agent needs no more than to find `mount`, `sh` and `ip`, whose paths it is given (and mkdir).
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C' },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const forget = child.pid !== undefined ? recordProcessGroup(child.pid, 'suture sandbox holder') : undefined;
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    if (stderr.length < 8192) stderr += c.toString();
  });
  child.stdin!.on('error', () => undefined);
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;
  const lines = createInterface({ input: child.stdout! });
  const ready = new Promise<{ pid: number; facts: HolderFacts; notes: string[] }>((resolve, reject) => {
    let first = true;
    lines.on('line', (line) => {
      let msg: {
        id?: number;
        result?: unknown;
        error?: { message: string; code?: string; path?: string };
      } & Record<string, unknown>;
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        return;
      }
      if (first) {
        first = false;
        if (msg.ready) resolve(msg as unknown as { pid: number; facts: HolderFacts; notes: string[] });
        else reject(new HolderError(`the sandbox could not be set up: ${String(msg.error)}`));
        return;
      }
      const waiting = msg.id !== undefined ? pending.get(msg.id) : undefined;
      if (!waiting) return;
      pending.delete(msg.id!);
      if (msg.error)
        waiting.reject(
          // The path lets a refusal name the file (the view sits at the project's own path).
          Object.assign(
            new Error(msg.error.message),
            msg.error.code ? { code: msg.error.code } : {},
            msg.error.path ? { path: msg.error.path } : {},
          ),
        );
      else waiting.resolve(msg.result);
    });
    child.once('exit', (code, signal) => {
      closed = true;
      forget?.();
      const why = new HolderError(
        `the sandbox holder exited (${signal ?? `code ${code}`})${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join('; ')}` : ''}`,
      );
      reject(why);
      for (const p of pending.values()) p.reject(why);
      pending.clear();
    });
    child.once('error', (error) =>
      reject(new HolderError(`the sandbox holder could not start: ${error.message}`)),
    );
  });
  // the setup may come after the agent has failed to start: that failure is its answer then
  ready.catch(() => undefined);
  const kill = async (): Promise<void> => {
    if (child.pid !== undefined && !closed) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
    await exited(child);
  };
  return {
    pid: child.pid,
    async setup(ops) {
      child.stdin!.write(`${JSON.stringify({ mount: tools.mount, sh: tools.sh, ops })}\n`);
      const hello = await ready.catch(async (error: unknown) => {
        await kill();
        throw error;
      });
      return {
        pid: child.pid!,
        facts: hello.facts,
        notes: hello.notes,
        ownNetwork: options.network,
        request<T>(op: string, fields: Record<string, unknown> = {}): Promise<T> {
          if (closed) return Promise.reject(new HolderError('the sandbox holder has exited'));
          const id = nextId++;
          return new Promise<T>((resolve, reject) => {
            pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
            child.stdin!.write(`${JSON.stringify({ id, op, ...fields })}\n`);
          });
        },
        // The agent keeps nothing to save: its mounts end with its namespaces, so its group is
        // ended at once rather than waited on to exit by itself (which cost a few ms a workspace).
        async close() {
          if (closed) return;
          child.stdin!.end();
          await kill();
        },
      };
    },
    abandon: kill,
  };
}
