import { join, relative } from 'node:path';
import { shellQuote } from '../../text/shell-quote.js';
import type { HolderFacts, SetupOp } from './holder.js';
import type { SandboxTools } from './tools.js';

/** One line of /proc/self/mountinfo: where a mount is and whether it is read-only already. */
export interface MountPoint {
  point: string;
  readOnly: boolean;
}

/** A mount point as /proc/self/mountinfo and fstab(5) escape it (`\040` for a space). */
const unescapeField = (p: string): string =>
  p.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
const escapeField = (s: string): string =>
  s.replace(/[\\ \t\n]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`);

/** The mounts of a /proc/<pid>/mountinfo text, in its order. */
export function parseMountInfo(text: string): MountPoint[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const fields = line.split(' ');
      return { point: unescapeField(fields[4] ?? ''), readOnly: (fields[5] ?? '').split(',').includes('ro') };
    });
}

interface Command {
  args: string[];
  /** A folder made before the command (its mount point). */
  mkdir?: string;
  /** May fail: its reason is kept and the setup goes on. */
  optional?: 'read-only' | 'submount' | 'loopback';
  /** The mount point an optional command's reason is reported for. */
  point?: string;
}

/** The target of a command (its last argument), where a failure message names it. */
const targetOf = (c: Command): string => c.args[c.args.length - 1]!;

/** A command as one line of a mount table, or undefined for one that has no such line. */
function tableLine(args: string[]): string | undefined {
  const [a, b, c, d, e, g] = args;
  // the options field is kept as it is: options that would need escaping go to a mount of their own
  const plain = (o: string | undefined): o is string => o !== undefined && !/[\\\s]/.test(o);
  if (args.length === 3 && (a === '--rbind' || a === '--bind'))
    return `${escapeField(b!)} ${escapeField(c!)} none ${a.slice(2)} 0 0`;
  // mount --all never remounts the root: that one runs alone
  if (args.length === 3 && a === '-o' && c !== '/' && plain(b))
    return `none ${escapeField(c!)} none ${b} 0 0`;
  // Sources no mount has, so --all never takes one for a mount already made and skips it.
  if (args.length === 6 && a === '-t' && b === 'overlay' && d === '-o' && plain(e))
    return `suture-view ${escapeField(g!)} overlay ${e} 0 0`;
  if (args.length === 6 && a === '-t' && b === 'tmpfs' && c === '-o' && plain(d))
    return `suture-tmpfs ${escapeField(g!)} tmpfs ${d} 0 0`;
  return undefined;
}

/** Whether `path` is `dir` or below it. */
const under = (path: string, dir: string): boolean =>
  path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);

/**
 * The mount commands of a setup, in order. What the read-only step remounts and what a writable
 * bind carries along are read from `table`, the mount table the namespace starts with (a copy of
 * the one suture runs in), and the steps before them.
 */
function commands(ops: readonly SetupOp[], table: readonly MountPoint[], tools: SandboxTools): Command[] {
  const cmds: Command[] = [];
  const points = [...table];
  /** The points the read-only step made read-only (not those read-only already). */
  const madeReadOnly = new Set<string>();
  const binds: { src: string; dst: string }[] = [];
  for (const op of ops) {
    if (op.op === 'loopback') cmds.push({ args: [op.ip, 'link', 'set', 'lo', 'up'], optional: 'loopback' });
    else if (op.op === 'stash') {
      cmds.push({ args: ['--bind', op.src, op.dst] });
      // a bind without --rbind: the folder's own mount, none below it
      points.push({
        point: op.dst,
        readOnly: points.findLast((p) => under(op.src, p.point))?.readOnly ?? false,
      });
    } else if (op.op === 'read-only') {
      // Every mount but /proc (a fresh one is mounted over it per run) and the terminals; a point
      // mounted twice is remounted once, as a remount reaches the top mount either way.
      for (const { point, readOnly } of points) {
        if (readOnly || under(point, '/proc') || point === '/dev/pts' || madeReadOnly.has(point)) continue;
        madeReadOnly.add(point);
        cmds.push({ args: ['-o', 'remount,bind,ro', point], optional: 'read-only', point });
      }
    } else if (op.op === 'bind') {
      // Recursive: a namespace may not bind a tree with mounts below it alone (the kernel answers
      // EINVAL), as a project holding a tmpfs or a bind mount does.
      cmds.push(
        { mkdir: op.dst, args: ['--rbind', op.src, op.dst] },
        { args: ['-o', 'remount,bind,rw', op.dst] },
      );
      binds.push(op);
    } else if (op.op === 'overlay')
      cmds.push({
        args: [
          '-t',
          'overlay',
          'overlay',
          '-o',
          `lowerdir=${op.lower},upperdir=${op.upper},workdir=${op.work}`,
          op.target,
        ],
      });
    else if (op.op === 'bind-ro')
      cmds.push(
        { args: ['--rbind', op.src, op.dst] },
        { args: ['-o', 'remount,bind,ro', op.dst], optional: 'read-only', point: op.dst },
      );
    else if (op.op === 'cover')
      cmds.push(
        ...(op.kind === 'dir'
          ? [{ args: ['-t', 'tmpfs', '-o', 'ro,mode=0555,size=4k', 'tmpfs', op.target] }]
          : [{ args: ['--bind', op.empty, op.target] }, { args: ['-o', 'remount,bind,ro', op.target] }]),
      );
    else cmds.push({ args: ['-t', 'tmpfs', '-o', `mode=1777,size=${op.size}`, 'tmpfs', op.target] });
  }
  // The mounts a writable bind carried along are writable too, unless they were read-only before
  // the sandbox (a read-only bind stays one).
  if (madeReadOnly.size > 0)
    for (const b of binds)
      for (const point of new Set(points.map((p) => p.point)))
        if (point !== b.src && under(point, b.src) && madeReadOnly.has(point)) {
          const carried = join(b.dst, relative(b.src, point));
          cmds.push({ args: ['-o', 'remount,bind,rw', carried], optional: 'submount', point: carried });
        }
  return cmds.map((c) => (c.optional === 'loopback' ? c : { ...c, args: [tools.mount, ...c.args] }));
}

interface Group {
  /** The commands one mount --all does from a table, or a single command. */
  cmds: Command[];
  lines: string[];
}

/** A holder's setup as a shell script, and what reading its outcome needs. */
export interface SetupScript {
  /** Defines `setup`, which mounts the view and returns non-zero at a failed step it may not pass. */
  script: string;
  /** The tables its mount --all commands read: written before it runs, removable once it has. */
  tables: { path: string; text: string }[];
  groups: Group[];
}

/**
 * The setup `ops` as one shell script, with consecutive commands a mount table can hold done by
 * one mount --all over that table: a mount process costs a couple of milliseconds, and a sandbox's
 * setup is some thirty mounts. A folder a command mounts on is made first, unless it lies under a
 * mount of the same table, which then ends before it. Each failure is reported on descriptor 4 as
 * `\x1e<group>\x1f<message>`; an optional command may fail, any other stops the setup.
 */
export function setupScript(
  ops: readonly SetupOp[],
  table: readonly MountPoint[],
  tools: SandboxTools,
  tableDir: string,
): SetupScript {
  const groups: (Group & { table: boolean })[] = [];
  for (const c of commands(ops, table, tools)) {
    const line = c.optional === 'loopback' ? undefined : tableLine(c.args.slice(1));
    const last = groups[groups.length - 1];
    const covered =
      last?.table &&
      c.mkdir &&
      last.cmds.some((o) => c.mkdir === targetOf(o) || c.mkdir!.startsWith(`${targetOf(o)}/`));
    if (line && last?.table && !covered) {
      last.cmds.push(c);
      last.lines.push(line);
    } else groups.push({ table: !!line, cmds: [c], lines: line ? [line] : [] });
  }
  const tables: SetupScript['tables'] = [];
  // Each table is opened before the first mount: a later one may cover the folder it is in.
  const opens: string[] = [];
  const body: string[] = [];
  const waits: string[] = [];
  groups.forEach((g, i) => {
    // mount --all goes on past a failed line: a table with optional lines is judged after it
    const fatal = g.cmds.every((c) => !c.optional);
    for (const c of g.cmds)
      if (c.mkdir)
        body.push(`[ -d ${shellQuote(c.mkdir)} ] || mkdir -p -- ${shellQuote(c.mkdir)} 2>/dev/null`);
    let args = g.cmds[0]!.args;
    if (g.table && g.cmds.length > 1) {
      const fd = 5 + tables.length;
      const path = join(tableDir, `fstab-${i}`);
      tables.push({ path, text: `${g.lines.join('\n')}\n` });
      opens.push(`exec ${fd}<${shellQuote(path)}`);
      args = [tools.mount, '-a', '-T', `/proc/self/fd/${fd}`];
    }
    const line = `run ${i} ${args.map(shellQuote).join(' ')}`;
    // the loopback comes up beside the mounts: they do not depend on each other
    if (g.cmds[0]!.optional === 'loopback') {
      body.push(`${line} & l${i}=$!`);
      waits.push(`wait "$l${i}"`);
    } else body.push(`${line}${fatal ? ' || return 1' : ''}`);
  });
  const script = [
    'run() { t=$1; shift; e=$("$@" 2>&1) && return 0; printf "\\036%s\\037%s" "$t" "$e" >&4; return 1; }',
    'setup() {',
    ...opens,
    ...body,
    ...waits,
    'return 0',
    '}',
  ].join('\n');
  return { script: `${script}\n`, tables, groups };
}

/**
 * The facts of a setup from the failures its script reported (`\x1e<group>\x1f<message>` each), or
 * the error of the step that stopped it.
 */
export function setupOutcome(
  plan: SetupScript,
  ops: readonly SetupOp[],
  reported: string,
  status: number,
): { facts: HolderFacts; notes: string[] } {
  const failures: { cmd: Command | undefined; message: string }[] = [];
  for (const rec of reported.split('\x1e').filter(Boolean)) {
    const [index, ...rest] = rec.split('\x1f');
    const message = rest.join('\x1f').trim();
    const g = plan.groups[Number(index)];
    if (!g) throw new Error(`the mount script failed: ${message}`);
    if (g.cmds.length === 1) {
      failures.push({ cmd: g.cmds[0], message });
      continue;
    }
    // mount --all says "mount: <target>: <why>" for each line of the table that failed
    const lines = message.split('\n').filter((l) => l.startsWith('mount: '));
    for (const l of lines) {
      const cmd = g.cmds
        .filter((c) => l.startsWith(`mount: ${targetOf(c)}: `))
        .sort((x, y) => targetOf(y).length - targetOf(x).length)[0];
      // an optional step's reason is reported after its target; a fatal one as mount said it
      failures.push({
        cmd,
        message: cmd?.optional ? l.slice(`mount: ${targetOf(cmd)}: `.length).trim() : l.trim(),
      });
    }
    if (lines.length === 0) failures.push({ cmd: undefined, message });
  }
  const fatal = failures.find((f) => !f.cmd?.optional);
  if (fatal || status !== 0)
    throw new Error(fatal ? fatal.message : `the mount script failed (status ${status})`);
  const facts: HolderFacts = {
    network: ops.some((o) => o.op === 'loopback'),
    readOnly: ops.some((o) => o.op === 'read-only'),
    readOnlyFailures: [],
  };
  const notes: string[] = [];
  for (const { cmd, message } of failures) {
    if (cmd?.optional === 'loopback') {
      facts.network = false;
      notes.push(`the loopback interface could not be brought up: ${message}`);
    } else if (cmd?.optional === 'submount')
      notes.push(`${cmd.point} stays read-only in the sandbox: ${message}`);
    else facts.readOnlyFailures.push(`${cmd!.point}: ${message}`);
  }
  return { facts, notes };
}
