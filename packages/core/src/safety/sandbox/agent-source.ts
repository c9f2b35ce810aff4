/**
 * The program that holds a sandbox's namespaces open: started as root of a private user, mount
 * (and network) namespace, it mounts the view (`setup`), prints one `{"ready":...}` line, then
 * serves file requests on stdin, one JSON line each, until stdin closes (suture ended or died),
 * when it exits and the namespaces go with it. Its file operations see the view at the project's
 * own path; everything outside the writable folders is read-only to it as to the tests, so no
 * request can write outside them. Plain JavaScript run with `node --input-type=module -e`: it
 * never loads suture's own modules.
 */
export const AGENT_SOURCE = String.raw`
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync } from 'node:fs';
import { lstat, mkdir, open, readFile, realpath, rename, rm, stat, utimes } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { createInterface } from 'node:readline';

const setup = JSON.parse(process.argv[1]);
const notes = [];
const mount = (...args) => execFileSync(setup.mount, args, { stdio: ['ignore', 'ignore', 'pipe'] });
const why = (e) => String((e && e.stderr && e.stderr.toString().trim()) || (e && e.message) || e);

function unescapeMount(p) {
  return p.replace(/\\([0-7]{3})/g, (_, o) => String.fromCharCode(parseInt(o, 8)));
}

/** Every mount read-only but /proc (a fresh one is mounted over it per run) and the terminals. */
function readOnlyAll() {
  const points = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => ({ point: unescapeMount(l.split(' ')[4]), opts: l.split(' ')[5] }));
  const failed = [];
  for (const { point, opts } of points) {
    if (point === '/proc' || point.startsWith('/proc/') || point === '/dev/pts') continue;
    if (opts.split(',').includes('ro')) continue;
    try {
      mount('-o', 'remount,bind,ro', point);
    } catch (e) {
      failed.push(point + ': ' + why(e));
    }
  }
  return failed;
}

function writableBind(src, dst) {
  try {
    mkdirSync(dst, { recursive: true });
  } catch {}
  mount('--bind', src, dst);
  mount('-o', 'remount,bind,rw', dst);
}

const facts = { network: false, readOnly: false, readOnlyFailures: [] };
try {
  for (const op of setup.ops) {
    if (op.op === 'loopback') {
      try {
        execFileSync(op.ip, ['link', 'set', 'lo', 'up'], { stdio: ['ignore', 'ignore', 'pipe'] });
        facts.network = true;
      } catch (e) {
        notes.push('the loopback interface could not be brought up: ' + why(e));
      }
    } else if (op.op === 'stash') mount('--bind', op.src, op.dst);
    else if (op.op === 'read-only') {
      facts.readOnlyFailures = readOnlyAll();
      facts.readOnly = true;
    } else if (op.op === 'bind') writableBind(op.src, op.dst);
    else if (op.op === 'overlay')
      mount('-t', 'overlay', 'overlay', '-o', 'lowerdir=' + op.lower + ',upperdir=' + op.upper + ',workdir=' + op.work, op.target);
    else if (op.op === 'tmpfs') mount('-t', 'tmpfs', '-o', 'mode=1777,size=' + op.size, 'tmpfs', op.target);
  }
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
  const handle = await open(tmp, 'w', mode ?? (old ? old.mode & 0o7777 : 0o644));
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
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
    await write(r.path, await readFile(r.path), st.mode & 0o7777);
    await utimes(r.path, st.atime, st.mtime);
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

const rl = createInterface({ input: process.stdin });
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
