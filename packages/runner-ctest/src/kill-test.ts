import { readdir, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { runProcess } from '@suture/core';

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
 * Kills the test process that CTest (a child of this process) started for `command`, and every
 * process under it, so CTest sees the test end and goes on with the others. CTest cannot stop one
 * GoogleTest case inside a whole test binary, nor give entries different limits from its command
 * line; this is how the runner does both. Returns whether a process was found.
 */
export async function killTestProcess(command: readonly string[], root = process.pid): Promise<boolean> {
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
  if (!target) return false;
  const doomed = [target];
  for (let i = 0; i < doomed.length; i++) doomed.push(...(children.get(doomed[i]!.pid) ?? []));
  for (const p of doomed) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return true;
}
