import { readdir, readFile, readlink } from 'node:fs/promises';
import { basename } from 'node:path';

interface Proc {
  pid: number;
  ppid: number;
  pgrp: number;
  argv: string[];
  /** What the process's stdout and stderr are (`pipe:[123]`, `socket:[456]`, a path). */
  outputs: string[];
}

async function readProc(pid: number): Promise<Proc | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // the command name in parentheses may hold spaces and parentheses: read after the last one
    const [, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').slice(0, -1);
    const outputs = await Promise.all([1, 2].map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
    return { pid, ppid: Number(ppid), pgrp: Number(pgrp), argv, outputs };
  } catch {
    return undefined; // it ended meanwhile
  }
}

const isPipe = (output: string): boolean => /^(pipe|socket):/.test(output);

/**
 * Kills the helpers that ended tests left running while they hold those tests' output open: a
 * server a test started in the background inherits its stdout, and CTest waits for every writer
 * of a test's pipe to close it before it calls the test ended, however long the helper lives.
 * A helper is a process of a CTest's process group (CTest under this process, found by its
 * executable's name) that is neither CTest, nor one of its ancestors, nor under it (a test still
 * running, and what it started that is still its child), and whose stdout or stderr is a pipe
 * that no running test holds (a test's daemon serving it shares its pipe). Linux only: elsewhere
 * nothing is found. Returns the command lines of the processes killed.
 */
export async function killLeftoverHelpers(ctest: string, root = process.pid): Promise<string[]> {
  const pids = await readdir('/proc').catch(() => undefined);
  if (!pids) return [];
  const procs = (
    await Promise.all(pids.filter((p) => /^\d+$/.test(p)).map((p) => readProc(Number(p))))
  ).filter((p): p is Proc => p !== undefined);
  const byPid = new Map(procs.map((p) => [p.pid, p]));
  const children = new Map<number, Proc[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const under = (pid: number): Proc[] => {
    const found: Proc[] = [];
    for (let queue = [...(children.get(pid) ?? [])]; queue.length > 0;) {
      const p = queue.shift()!;
      found.push(p);
      queue.push(...(children.get(p.pid) ?? []));
    }
    return found;
  };
  const name = basename(ctest);
  const killed: string[] = [];
  for (const c of under(root).filter((p) => basename(p.argv[0] ?? '') === name)) {
    const running = under(c.pid);
    const spared = new Set([c.pid, ...running.map((p) => p.pid)]);
    for (let a = byPid.get(c.ppid); a && !spared.has(a.pid); a = byPid.get(a.ppid)) spared.add(a.pid);
    const held = new Set([...c.outputs, ...running.flatMap((p) => p.outputs)]);
    for (const p of procs) {
      if (p.pgrp !== c.pgrp || spared.has(p.pid)) continue;
      if (!p.outputs.some((o) => isPipe(o) && !held.has(o))) continue;
      try {
        process.kill(p.pid, 'SIGKILL');
        killed.push(p.argv.join(' '));
      } catch {
        // already gone
      }
    }
  }
  return killed;
}
