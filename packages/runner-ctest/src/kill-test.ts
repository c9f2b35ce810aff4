import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { runProcess } from '@suture/core';
import { BACKTRACE_FRAMES } from './analyzer/crash-backtrace.js';

/** How long the debugger may take to say where a test that is about to be killed is. */
const STUCK_TRACE_MS = 20_000;

interface Proc {
  pid: number;
  ppid: number;
  argv: string[];
}

/** Every process from /proc, with its exact argv (NUL-separated in cmdline). */
async function fromProc(): Promise<Proc[] | undefined> {
  const pids = await readdir('/proc').catch(() => undefined);
  if (!pids) return undefined;
  const procs = await Promise.all(
    pids
      .filter((p) => /^\d+$/.test(p))
      .map(async (p): Promise<Proc | undefined> => {
        try {
          const stat = await readFile(`/proc/${p}/stat`, 'utf8');
          // the command name in parentheses may hold spaces and parentheses: read after the last one
          const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
          const cmdline = await readFile(`/proc/${p}/cmdline`, 'utf8');
          return { pid: Number(p), ppid, argv: cmdline.split('\0').slice(0, -1) };
        } catch {
          return undefined; // it ended meanwhile
        }
      }),
  );
  return procs.filter((p): p is Proc => p !== undefined);
}

/** Where there is no /proc (macOS, BSD): ps, whose argv is joined by spaces. */
async function fromPs(): Promise<Proc[]> {
  const r = await runProcess('ps', ['-A', '-ww', '-o', 'pid=,ppid=,args='], {
    cwd: process.cwd(),
    timeoutMs: 10_000,
    tailBytes: 8 * 1024 * 1024,
  });
  return r.output.split('\n').flatMap((line) => {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    return m ? [{ pid: Number(m[1]), ppid: Number(m[2]), argv: m[3]!.split(' ') }] : [];
  });
}

const sameCommand = (argv: string[], command: readonly string[]): boolean =>
  argv.length === command.length &&
  basename(argv[0] ?? '') === basename(command[0] ?? '') &&
  argv.every((a, i) => i === 0 || a === command[i]);

/**
 * The backtrace of a live process, from gdb attached to it for a moment: where a test that hangs
 * is stuck, which its output never says. Undefined without gdb or when it cannot attach. gdb runs
 * beside suture, not in the run's sandbox: a sandboxed run has a PID namespace of its own, in which
 * the test's pid means nothing; it reads no init file and loads no script from the project.
 */
function stuckAt(pid: number): Promise<string | undefined> {
  const args = [
    '-batch',
    '-nx',
    '-iex',
    'set auto-load off',
    '-p',
    String(pid),
    '-ex',
    `bt ${BACKTRACE_FRAMES}`,
  ];
  return new Promise((resolve) => {
    execFile(
      'gdb',
      args,
      {
        timeout: STUCK_TRACE_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 4 * 1024 * 1024,
        env: { ...process.env, LANG: 'C' },
      },
      (_error, stdout) => {
        const frames = String(stdout ?? '')
          .split('\n')
          .filter((l) => /^#\d+\s/.test(l));
        resolve(frames.length > 0 ? frames.join('\n') : undefined);
      },
    );
  });
}

/** The process CTest (under `root`) runs `command` in, if it is running, and the process tree. */
async function findTestProcess(
  command: readonly string[],
  root: number,
): Promise<{ target?: Proc; children: Map<number, Proc[]> }> {
  const procs = (await fromProc()) ?? (await fromPs());
  const children = new Map<number, Proc[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const ours: Proc[] = [];
  const walk = (pid: number): void => {
    for (const c of children.get(pid) ?? []) {
      ours.push(c);
      walk(c.pid);
    }
  };
  walk(root);
  const target = ours.find((p) => sameCommand(p.argv, command));
  return { ...(target ? { target } : {}), children };
}

/** Whether CTest (under `root`) is running `command`: once it is not, the test has ended. */
export async function testProcessRunning(command: readonly string[], root = process.pid): Promise<boolean> {
  return (await findTestProcess(command, root)).target !== undefined;
}

/**
 * Kills the test process that CTest (a child of this process) started for `command`, and every
 * process under it, so CTest sees the test end and goes on with the others. CTest cannot stop one
 * GoogleTest case inside a whole test binary, nor give entries different limits from its command
 * line; this is how the runner does both. With `backtrace`, gdb first says where the test is (a
 * test stopped at its time limit is stuck there). Undefined when no process was found.
 */
export async function killTestProcess(
  command: readonly string[],
  root = process.pid,
  options: { backtrace?: boolean } = {},
): Promise<{ backtrace?: string } | undefined> {
  const { target, children } = await findTestProcess(command, root);
  if (!target) return undefined;
  const backtrace = options.backtrace ? await stuckAt(target.pid) : undefined;
  const doomed = [target];
  for (let i = 0; i < doomed.length; i++) doomed.push(...(children.get(doomed[i]!.pid) ?? []));
  for (const p of doomed) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return backtrace ? { backtrace } : {};
}
