import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { processAlive, recordProcessGroup } from '../process/process-groups.js';
import { AGENT_SOURCE } from './agent-source.js';
import { parseMountInfo, setupOutcome, setupScript } from './setup-script.js';
import type { SandboxTools } from './tools.js';

/** One step of a holder's setup, done in order before it is ready. */
export type SetupOp =
  | { op: 'loopback'; ip: string }
  /** Binds the real `src` at `dst` before anything covers it, so the view can still reach it. */
  | { op: 'stash'; src: string; dst: string }
  | { op: 'read-only' }
  | { op: 'bind'; src: string; dst: string }
  /** Binds `src` at `dst` read-only: a folder inside a writable bind that the runs may not write. */
  | { op: 'bind-ro'; src: string; dst: string }
  | { op: 'overlay'; lower: string; upper: string; work: string; target: string }
  | { op: 'tmpfs'; target: string; size: string }
  /** Covers a folder with an empty read-only one, or a file with `empty` (an empty file), read-only. */
  | { op: 'cover'; target: string; kind: 'dir' | 'file'; empty: string };

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

/** Waits, briefly, until no process of group `pgid` is left (killed ones included, until reaped). */
async function groupGone(pgid: number): Promise<void> {
  for (let waited = 0; waited < 200 && processAlive(-pgid); waited += 2) await delay(2);
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
 * The holder's first process, as root of the namespaces: it starts the agent (its arguments) on
 * its own stdin and, meanwhile, reads the setup script on descriptor 3, runs it and reports on
 * descriptor 4, then waits for the agent. The mounts are done while the agent's Node starts.
 */
const HOLDER = [
  // Ended with SIGTERM, it reaps what it started before it leaves: no orphan is left to the machine's init.
  "trap 'wait; exit 143' TERM",
  'exec 5<&0',
  '"$@" <&5 5<&- 3<&- 4>&- &',
  'a=$!',
  'exec 5<&-',
  'eval "$(cat <&3)" && exec 3<&- && setup',
  `printf '\\036end\\037%s' "$?" >&4`,
  'exec 4>&-',
  'wait "$a"',
].join('\n');

/**
 * Starts a holder's processes before its setup is known: Node's start, most of a holder's cost,
 * then overlaps the work that decides what to mount, and the mounts themselves.
 */
export function spawnHolder(tools: SandboxTools, options: { network: boolean }): PendingHolder {
  const args = [
    '--user',
    '--map-root-user',
    '--mount',
    ...(options.network ? ['--net'] : []),
    '--',
    tools.sh,
    '-c',
    HOLDER,
    'suture-holder',
    process.execPath,
    '-e',
    AGENT_SOURCE,
    tools.mount,
  ];
  const child = spawn(tools.unshare, args, {
    // Its shell needs no more than to find `cat` and `mkdir`: the other tools are given by path.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C' },
    stdio: ['pipe', 'pipe', 'pipe', 'pipe', 'pipe'],
    detached: true,
  });
  const forget = child.pid !== undefined ? recordProcessGroup(child.pid, 'suture sandbox holder') : undefined;
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => {
    if (stderr.length < 8192) stderr += c.toString();
  });
  child.stdin!.on('error', () => undefined);
  (child.stdio[3] as Writable).on('error', () => undefined);
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let closed = false;
  // The agent's answers, one JSON line per request.
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let msg: { id?: number; result?: unknown; error?: { message: string; code?: string; path?: string } };
    try {
      msg = JSON.parse(line) as typeof msg;
    } catch {
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
  // What the setup script reports on descriptor 4, up to its `end` record.
  const reported = new Promise<{ records: string; status: number }>((resolve, reject) => {
    let text = '';
    const report = child.stdio[4] as Readable;
    report.setEncoding('utf8');
    report.on('data', (chunk: string) => {
      text += chunk;
      const end = /\x1eend\x1f(\d+)$/.exec(text);
      if (end) resolve({ records: text.slice(0, end.index), status: Number(end[1]) });
    });
    report.on('error', () => undefined);
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
  // the setup may come after the holder has failed to start: that failure is its answer then
  reported.catch(() => undefined);
  const kill = async (): Promise<void> => {
    const signal = (name: NodeJS.Signals): void => {
      if (child.pid === undefined || closed) return;
      try {
        process.kill(-child.pid, name);
      } catch {
        // gone already
      }
    };
    // SIGTERM ends the agent (and a step of the setup) and has the shell reap them; a process it
    // missed, forked as it came, still reads the end of its input. SIGKILL is for a holder that
    // does not leave.
    (child.stdio[3] as Writable).end();
    child.stdin!.end();
    signal('SIGTERM');
    const stubborn = setTimeout(() => signal('SIGKILL'), 1000);
    await exited(child);
    clearTimeout(stubborn);
    if (child.pid !== undefined) await groupGone(child.pid);
  };
  return {
    pid: child.pid,
    async setup(ops) {
      let outcome: { facts: HolderFacts; notes: string[] };
      const tableDir = await mkdtemp(join(tmpdir(), 'suture-mounts-'));
      try {
        const plan = setupScript(
          ops,
          parseMountInfo(await readFile('/proc/self/mountinfo', 'utf8')),
          tools,
          tableDir,
        );
        await Promise.all(plan.tables.map((t) => writeFile(t.path, t.text)));
        const script = child.stdio[3] as Writable;
        script.end(plan.script);
        const { records, status } = await reported;
        try {
          outcome = setupOutcome(plan, ops, records, status);
        } catch (error) {
          throw new HolderError(
            `the sandbox could not be set up: ${(error as Error).message}${status !== 0 && !records && stderr.trim() ? `: ${stderr.trim()}` : ''}`,
          );
        }
      } catch (error) {
        await kill();
        throw error;
      } finally {
        await rm(tableDir, { recursive: true, force: true });
      }
      return {
        pid: child.pid!,
        facts: outcome.facts,
        notes: outcome.notes,
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
