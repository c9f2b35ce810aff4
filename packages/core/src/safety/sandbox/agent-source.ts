/**
 * The program that holds a sandbox's namespaces open: started as root of a private user, mount
 * (and network) namespace while the holder's shell mounts the view, it serves file requests on
 * stdin, one JSON line each, until stdin closes (suture ended or died), when it exits and the
 * namespaces go with it. suture sends none before the view is mounted. Its file
 * operations see the view at the project's own path; everything outside the writable folders is
 * read-only to it as to the tests, so no request can write outside them. Plain JavaScript run
 * with `node -e` (CommonJS, which starts sooner than a module): it never loads suture's own modules.
 */
export const AGENT_SOURCE = String.raw`
const fs = require('node:fs');
const { lstat, mkdir, open, readFile, realpath, rename, rm, stat, utimes } = require('node:fs/promises');
const { dirname, basename, join } = require('node:path');
const { StringDecoder } = require('node:string_decoder');

// mount(8), whose path is the agent's argument, binds a build folder made after the setup
const mount = (...args) =>
  require('node:child_process').execFileSync(process.argv[1], args, { stdio: ['ignore', 'ignore', 'pipe'] });

function writableBind(src, dst) {
  try {
    fs.mkdirSync(dst, { recursive: true });
  } catch {}
  mount('--bind', src, dst);
  mount('-o', 'remount,bind,rw', dst);
}

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
    fs.lstatSync(r.src);
    writableBind(r.src, r.dst);
  },
};

// Requests are read from stdin and answers written to stdout with plain reads and writes: a
// stream over a pipe loads modules whose start-up would delay the first answer.
const queue = [];
let writing = false;
function flush() {
  const chunk = queue.shift();
  if (!chunk) {
    writing = false;
    return;
  }
  writing = true;
  fs.write(1, chunk, 0, chunk.length, null, (e, n) => {
    // a pipe left non-blocking is full for now: the same bytes again shortly
    if (e && e.code === 'EAGAIN') {
      queue.unshift(chunk);
      return void setTimeout(flush, 2);
    }
    if (e) process.exit(0); // suture is gone: nobody is left to answer
    if (n < chunk.length) queue.unshift(chunk.subarray(n));
    flush();
  });
}
function send(answer) {
  queue.push(Buffer.from(JSON.stringify(answer) + '\n'));
  if (!writing) flush();
}

function serve(line) {
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
      (result) => send({ id: req.id, result: result ?? null }),
      (e) => send({ id: req.id, error: { message: String(e && e.message), code: e && e.code, path: e && e.path } }),
    );
}

const decoder = new StringDecoder('utf8');
const input = Buffer.alloc(1 << 16);
// the pieces of a line not yet ended: a file's bytes may take many reads, each looked at once
let parts = [];
function take(text) {
  let from = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', from)) {
    parts.push(text.slice(from, at));
    const line = parts.join('');
    parts = [];
    if (line) serve(line);
    from = at + 1;
  }
  if (from < text.length) parts.push(text.slice(from));
}
function read() {
  fs.read(0, input, 0, input.length, null, (e, n) => {
    if (e && e.code === 'EAGAIN') return void setTimeout(read, 2);
    // the end of stdin: suture ended or died
    if (e || n === 0) process.exit(0);
    take(decoder.write(input.subarray(0, n)));
    read();
  });
}
read();
`;
