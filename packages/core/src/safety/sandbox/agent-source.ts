/**
 * The program that holds a sandbox's namespaces open: started as root of a private user, mount
 * (and network) namespace, it reads its setup (the first line on stdin), mounts the view, prints
 * one `{"ready":...}` line, then serves file requests on stdin, one JSON line each, until stdin
 * closes (suture ended or died), when it exits and the namespaces go with it. Its file
 * operations see the view at the project's own path; everything outside the writable folders is
 * read-only to it as to the tests, so no request can write outside them. Plain JavaScript run
 * with `node --input-type=module -e`: it never loads suture's own modules.
 */
export const AGENT_SOURCE = String.raw`
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { lstat, mkdir, open, readFile, realpath, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';

// The setup is the first line on stdin: the agent starts while suture still decides what to mount.
const rl = createInterface({ input: process.stdin });
const setup = await new Promise((resolve) => {
  rl.once('line', (line) => resolve(JSON.parse(line)));
  rl.once('close', () => process.exit(0));
});
const notes = [];
const mount = (...args) => execFileSync(setup.mount, args, { stdio: ['ignore', 'ignore', 'pipe'] });
const why = (e) => String((e && e.stderr && e.stderr.toString().trim()) || (e && e.message) || e);

function unescapeMount(p) {
  return p.replace(/\\([0-7]{3})/g, (_, o) => String.fromCharCode(parseInt(o, 8)));
}

const quote = (s) => "'" + String(s).replace(/'/g, "'\\''") + "'";

/** A field of a mount table, escaped as fstab(5) and /proc/self/mountinfo escape them. */
const field = (s) => String(s).replace(/[\\ \t\n]/g, (c) => '\\' + c.charCodeAt(0).toString(8).padStart(3, '0'));

/** A command as one line of a mount table, or undefined for one that has no such line. */
function tableLine(args) {
  const [a, b, c, d, e, g] = args;
  // the options field is kept as it is: options that would need escaping go to a mount of their own
  const plain = (o) => !/[\\\s]/.test(o);
  if (args.length === 3 && (a === '--rbind' || a === '--bind')) return field(b) + ' ' + field(c) + ' none ' + a.slice(2) + ' 0 0';
  // mount --all never remounts the root: that one runs alone
  if (args.length === 3 && a === '-o' && c !== '/' && plain(b)) return 'none ' + field(c) + ' none ' + b + ' 0 0';
  // Sources no mount has, so --all never takes one for a mount already made and skips it.
  if (args.length === 6 && a === '-t' && b === 'overlay' && d === '-o' && plain(e)) return 'suture-view ' + field(g) + ' overlay ' + e + ' 0 0';
  if (args.length === 6 && a === '-t' && b === 'tmpfs' && c === '-o' && plain(d)) return 'suture-tmpfs ' + field(g) + ' tmpfs ' + d + ' 0 0';
  return undefined;
}

/** The target of a command (its last argument), where a failure message names it. */
const targetOf = (c) => c.args[c.args.length - 1];

/**
 * Runs mount commands in one shell, and consecutive ones that a mount table can hold in one
 * mount --all over that table: a mount process costs a couple of milliseconds, and a sandbox's
 * setup is some thirty mounts. A command marked optional may fail (its reason is returned with
 * it); any other failure stops the batch and is thrown with mount's own message. A folder a
 * command mounts on is made first, unless it lies under a mount of the same table, which then
 * ends before it.
 */
function batch(cmds) {
  if (cmds.length === 0) return [];
  let script = 'run() { t=$1; shift; e=$("$@" 2>&1) && return 0; printf "\\036%s\\037%s" "$t" "$e"; return 1; }\n';
  const groups = [];
  for (const c of cmds) {
    const line = tableLine(c.args);
    const last = groups[groups.length - 1];
    const covered = last && last.table && c.mkdir && last.cmds.some((o) => c.mkdir === targetOf(o) || c.mkdir.startsWith(targetOf(o) + '/'));
    if (line && last && last.table && !covered) {
      last.cmds.push(c);
      last.lines.push(line);
    } else groups.push({ table: !!line, cmds: [c], lines: [line] });
  }
  // Each table is read from a descriptor of an unlinked file: nothing is left behind once the
  // folders it sits in are read-only.
  const fds = [];
  try {
    groups.forEach((g, i) => {
      // mount --all goes on past a failed line: a table with optional lines is judged after it
      const fatal = g.cmds.every((c) => !c.optional);
      for (const c of g.cmds) if (c.mkdir) script += '[ -d ' + quote(c.mkdir) + ' ] || mkdir -p -- ' + quote(c.mkdir) + ' 2>/dev/null\n';
      let args;
      if (g.table && g.cmds.length > 1) {
        const dir = mkdtempSync(join(tmpdir(), 'suture-mounts-'));
        const file = join(dir, 'fstab');
        writeFileSync(file, g.lines.join('\n') + '\n');
        fds.push(openSync(file, 'r'));
        rmSync(dir, { recursive: true, force: true });
        args = ['-a', '-T', '/proc/self/fd/' + (2 + fds.length)];
      } else args = g.cmds[0].args;
      script += 'run ' + i + ' ' + [setup.mount, ...args].map(quote).join(' ') + (fatal ? ' || exit 1' : '') + '\n';
    });
    script += 'exit 0\n';
    const r = spawnSync(setup.sh, ['-c', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe', ...fds] });
    if (r.error) throw r.error;
    const failures = [];
    for (const rec of r.stdout.split('\x1e').filter(Boolean)) {
      const g = groups[Number(rec.split('\x1f')[0])];
      const message = rec.split('\x1f').slice(1).join('\x1f').trim();
      if (!g) throw new Error('the mount script failed: ' + message);
      if (g.cmds.length === 1) {
        failures.push({ cmd: g.cmds[0], message });
        continue;
      }
      // mount --all says "mount: <target>: <why>" for each line of the table that failed
      const lines = message.split('\n').filter((l) => l.startsWith('mount: '));
      for (const l of lines) {
        const cmd = g.cmds
          .filter((c) => l.startsWith('mount: ' + targetOf(c) + ': '))
          .sort((x, y) => targetOf(y).length - targetOf(x).length)[0];
        // an optional step's reason is reported after its target; a fatal one as mount said it
        failures.push({ cmd, message: cmd && cmd.optional ? l.slice(('mount: ' + targetOf(cmd) + ': ').length).trim() : l.trim() });
      }
      if (lines.length === 0) failures.push({ cmd: undefined, message });
    }
    const fatal = failures.find((f) => !f.cmd || !f.cmd.optional);
    if (fatal || r.status !== 0) throw new Error(fatal ? fatal.message : 'the mount script failed: ' + (r.stderr || r.status));
    return failures;
  } finally {
    for (const fd of fds) closeSync(fd);
  }
}

/** Every mount read-only but /proc (a fresh one is mounted over it per run) and the terminals. */
function readOnlyCommands() {
  const points = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => ({ point: unescapeMount(l.split(' ')[4]), opts: l.split(' ')[5] }))
    .filter(({ point, opts }) => point !== '/proc' && !point.startsWith('/proc/') && point !== '/dev/pts' && !opts.split(',').includes('ro'));
  // A point mounted twice is remounted once: a remount reaches the top mount either way.
  return [...new Set(points.map((p) => p.point))].map((point) => ({ args: ['-o', 'remount,bind,ro', point], optional: true, point }));
}

function writableBind(src, dst) {
  try {
    mkdirSync(dst, { recursive: true });
  } catch {}
  mount('--bind', src, dst);
  mount('-o', 'remount,bind,rw', dst);
}

const facts = { network: false, readOnly: false, readOnlyFailures: [] };
/** The loopback comes up beside the mounts: they do not depend on each other. */
const loopback = (ip) =>
  new Promise((resolve) =>
    execFile(ip, ['link', 'set', 'lo', 'up'], (e, _out, stderr) => {
      if (e) notes.push('the loopback interface could not be brought up: ' + String((stderr || '').trim() || e.message));
      else facts.network = true;
      resolve();
    }),
  );
try {
  const pending = [];
  let cmds = [];
  const flush = () => {
    for (const f of batch(cmds)) {
      if (f.cmd.submount) notes.push(f.cmd.point + ' stays read-only in the sandbox: ' + f.message);
      else facts.readOnlyFailures.push(f.cmd.point + ': ' + f.message);
    }
    cmds = [];
  };
  /** The points the read-only step made read-only (not those read-only already). */
  const madeReadOnly = new Set();
  const binds = [];
  // Recursive: a namespace may not bind a tree with mounts below it alone (the kernel answers
  // EINVAL), as a project holding a tmpfs or a bind mount does.
  const bind = (src, dst) => {
    cmds.push({ mkdir: dst, args: ['--rbind', src, dst] }, { args: ['-o', 'remount,bind,rw', dst] });
    binds.push({ src, dst });
  };
  for (const op of setup.ops) {
    if (op.op === 'loopback') pending.push(loopback(op.ip));
    else if (op.op === 'stash') cmds.push({ args: ['--bind', op.src, op.dst] });
    else if (op.op === 'read-only') {
      // The list is read once the mounts before it (the stash) are made.
      flush();
      const ro = readOnlyCommands();
      for (const c of ro) madeReadOnly.add(c.point);
      cmds.push(...ro);
      facts.readOnly = true;
    } else if (op.op === 'bind') bind(op.src, op.dst);
    else if (op.op === 'overlay')
      cmds.push({ args: ['-t', 'overlay', 'overlay', '-o', 'lowerdir=' + op.lower + ',upperdir=' + op.upper + ',workdir=' + op.work, op.target] });
    else if (op.op === 'tmpfs') cmds.push({ args: ['-t', 'tmpfs', '-o', 'mode=1777,size=' + op.size, 'tmpfs', op.target] });
  }
  flush();
  // The mounts a writable bind carried along are writable too, unless they were read-only before
  // the sandbox (a read-only bind stays one).
  if (madeReadOnly.size > 0 && binds.length > 0) {
    const points = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => unescapeMount(l.split(' ')[4]));
    for (const point of new Set(points))
      for (const b of binds)
        if (point.startsWith(b.dst + '/') && madeReadOnly.has(b.src + point.slice(b.dst.length)))
          cmds.push({ args: ['-o', 'remount,bind,rw', point], optional: true, submount: true, point });
    flush();
  }
  await Promise.all(pending);
} catch (e) {
  process.stdout.write(JSON.stringify({ ready: false, error: why(e) }) + '\n');
  process.exit(1);
}
process.stdout.write(JSON.stringify({ ready: true, pid: process.pid, facts, notes }) + '\n');

async function readOptional(path) {
  try {
    return await readFile(path);
  } catch (e) {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return undefined;
    throw e;
  }
}

/** Writes through the view: a temp file renamed over the target, so a test never sees half a file. */
async function write(path, data, mode) {
  await mkdir(dirname(path), { recursive: true });
  const old = await stat(path).catch(() => undefined);
  const tmp = join(dirname(path), '.' + basename(path) + '.suture-tmp-' + process.pid + '-' + Math.random().toString(16).slice(2));
  try {
    const handle = await open(tmp, 'w', mode ?? (old ? old.mode & 0o7777 : 0o644));
    try {
      await handle.writeFile(data);
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => {});
    // the error names the file being written, not the temp file the user never sees
    if (e && (e.path === tmp || (e.path === undefined && typeof e.code === 'string'))) e.path = path;
    if (e && typeof e.message === 'string') e.message = e.message.split(tmp).join(path);
    throw e;
  }
}

const handlers = {
  ping: async () => 'pong',
  read: async (r) => {
    const b = await readOptional(r.path);
    return b === undefined ? null : b.toString('base64');
  },
  write: async (r) => write(r.path, Buffer.from(r.data, 'base64'), r.mode),
  remove: async (r) => rm(r.path, { force: true }),
  /**
   * Copies a file into the view as it is now, times included: the user's later edits no longer
   * reach it, so the bytes a fixer was shown stay the bytes its patch applies to, and a build
   * sees nothing new.
   */
  pin: async (r) => {
    const st = await lstat(r.path).catch(() => undefined);
    if (!st || !st.isFile()) return false;
    // Opened to write, a file of the lower layer is copied up whole, its mode and times kept,
    // without a byte written; one the agent may not open so is copied through a temp file.
    const handle = await open(r.path, 'r+').catch(() => undefined);
    if (handle) await handle.close();
    else {
      await write(r.path, await readFile(r.path), st.mode & 0o7777);
      await utimes(r.path, st.atime, st.mtime);
    }
    return true;
  },
  lstat: async (r) => {
    const s = await lstat(r.path);
    return { file: s.isFile(), symlink: s.isSymbolicLink(), dir: s.isDirectory() };
  },
  realpath: async (r) => realpath(r.path),
  bind: async (r) => {
    lstatSync(r.src);
    writableBind(r.src, r.dst);
  },
};

rl.on('line', (line) => {
  let req;
  try {
    req = JSON.parse(line);
  } catch {
    return;
  }
  const handler = handlers[req.op];
  Promise.resolve()
    .then(() => (handler ? handler(req) : Promise.reject(new Error('unknown request ' + req.op))))
    .then(
      (result) => process.stdout.write(JSON.stringify({ id: req.id, result: result ?? null }) + '\n'),
      (e) => process.stdout.write(JSON.stringify({ id: req.id, error: { message: String(e && e.message), code: e && e.code, path: e && e.path } }) + '\n'),
    );
});
rl.on('close', () => process.exit(0));
`;
