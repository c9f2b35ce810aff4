import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Test processes run in sessions of their own (the session's first process group has the same
 * id), so a suture that is SIGKILLed cannot take them down with it: they go on running (and may
 * write files) after the run is gone. While a gate runs, each session it starts is recorded as a
 * file in a folder under `.suture/`, removed once the session is gone; `suture recover` kills the
 * sessions a dead run left behind. A whole session, not only its first group: a build tool puts
 * each job in a process group of its own (Ninja does), and those jobs stay in the session.
 */
const FOLDER = Symbol.for('@suture/core/process-group-record');
// one store per process, shared by every copy of @suture/core a plugin may load
const folder = ((globalThis as Record<symbol, unknown>)[FOLDER] ??=
  new AsyncLocalStorage<string>()) as AsyncLocalStorage<string>;

/** Runs `fn` with the process groups it starts (through runProcess) recorded in `dir`. */
export async function withProcessGroupRecord<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  mkdirSync(dir, { recursive: true });
  try {
    return await folder.run(dir, fn);
  } finally {
    // Empty once every runProcess has returned (each removes its record after killing its group);
    // the record of one still running (a runner that did not wait for it) stays.
    await rmdir(dir).catch(() => undefined);
  }
}

/** The fields of /proc/<pid>/stat after the command's name (state, ppid, pgrp, session, ...). */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/<pid>/stat: tells a process from a later one that got the same pid. */
function startTime(pid: number): string | undefined {
  return statFields(pid)?.[19];
}

/** The live processes of session `sid` (Linux /proc; none where there is no /proc). */
export function sessionMembers(sid: number): number[] {
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  const found: number[] = [];
  for (const name of names) {
    const first = name.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const fields = statFields(name);
    if (fields && Number(fields[3]) === sid && fields[0] !== 'Z') found.push(Number(name));
  }
  return found;
}

/**
 * SIGKILLs every process of session `sid` (its process groups and those its members made); a
 * process that started a session of its own has left it. Returns how many were signalled.
 */
export function killSession(sid: number): number {
  let killed = 0;
  try {
    process.kill(-sid, 'SIGKILL');
    killed++;
  } catch {
    // the first group is gone
  }
  for (const pid of sessionMembers(sid)) {
    try {
      process.kill(pid, 'SIGKILL');
      killed++;
    } catch {
      // gone in the meantime
    }
  }
  return killed;
}

/** Records a group started by the current gate, if any; returns its removal. */
export function recordProcessGroup(pgid: number, command: string): () => void {
  const dir = folder.getStore();
  if (!dir) return () => undefined;
  const file = join(dir, String(pgid));
  try {
    writeFileSync(file, JSON.stringify({ pgid, startTime: startTime(pgid), command }));
  } catch {
    return () => undefined;
  }
  return () => rmSync(file, { force: true });
}

/** Whether a process exists (a process group, given a negative id); EPERM means it does, under another user. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Kills the process groups recorded in `dir` that are still alive (a run that died left them) and
 * clears the record. A group whose leader's pid now belongs to a newer process is left alone.
 */
export async function stopRecordedProcessGroups(
  dir: string,
): Promise<Array<{ pgid: number; command: string }>> {
  const stopped: Array<{ pgid: number; command: string }> = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const file = join(dir, name);
    let record: { pgid: number; startTime?: string; command?: string };
    try {
      record = JSON.parse(await readFile(file, 'utf8')) as typeof record;
    } catch {
      await rm(file, { force: true });
      continue;
    }
    // The leader's pid taken by a newer process: the session is long gone. (While any process of
    // the session lives, its id is not given to a new process.)
    const now = startTime(record.pgid);
    const reused = now !== undefined && record.startTime !== undefined && now !== record.startTime;
    if (Number.isInteger(record.pgid) && record.pgid > 1 && !reused && killSession(record.pgid) > 0)
      stopped.push({ pgid: record.pgid, command: record.command ?? '' });
    await rm(file, { force: true });
  }
  return stopped;
}
