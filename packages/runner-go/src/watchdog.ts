import { readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { EventFold } from './events.js';
import { formatId } from './ids.js';

/** The environment variable that marks the test binaries of one run, so the watchdog finds them. */
export const MARKER = 'SUTURE_GO_RUN';

/** Can this platform find a test binary by its environment (Linux's /proc)? */
export const canWatch = process.platform === 'linux';

/**
 * The pids of the test binaries of this run built from package `pkg`: named `<last element>.test`,
 * those running in `cwd` (the package's folder) first, when the folder reads the same from here.
 */
async function testBinaries(marker: string, pkg: string, cwd: string): Promise<number[]> {
  const name = `${pkg.split('/').at(-1)!}.test`;
  const here: number[] = [];
  const out: number[] = [];
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((p) => /^\d+$/.test(p));
  await Promise.all(
    pids.map(async (pid) => {
      const cmd = await readFile(join('/proc', pid, 'cmdline'), 'utf8').catch(() => '');
      if ((cmd.split('\0')[0] ?? '').split('/').at(-1) !== name) return;
      const env = await readFile(join('/proc', pid, 'environ'), 'utf8').catch(() => '');
      if (!env.split('\0').includes(`${MARKER}=${marker}`)) return;
      if ((await readlink(join('/proc', pid, 'cwd')).catch(() => '')) === cwd) here.push(Number(pid));
      else out.push(Number(pid));
    }),
  );
  return here.length ? here : out;
}

/**
 * Follows the open tests of a run and stops the test binary of a top-level test that ran past its
 * limit with SIGQUIT: the Go runtime then prints every goroutine's stack, which test2json gives
 * to the running test as its output, and the binary exits. That dump is the timeout's evidence.
 */
export class Watchdog {
  private timer: NodeJS.Timeout | undefined;
  private busy = false;

  constructor(
    private readonly fold: EventFold,
    private readonly marker: string,
    private readonly limitOf: (id: string) => number,
    private readonly cwdOf: (dir: string) => string,
  ) {}

  start(): void {
    if (!canWatch) return;
    this.timer = setInterval(() => void this.tick(), 200);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const now = Date.now();
      for (const o of this.fold.open.values()) {
        if (o.name.includes('/') || o.paused) continue;
        const top = formatId(o.dir, o.name);
        const limit = this.limitOf(top);
        if (limit <= 0 || now - o.since < limit || this.fold.stopped.has(top)) continue;
        const pids = await testBinaries(this.marker, o.pkg, this.cwdOf(o.dir));
        if (pids.length === 0) continue;
        this.fold.stopped.set(top, limit);
        for (const pid of pids) {
          try {
            process.kill(pid, 'SIGQUIT');
          } catch {
            // it ended on its own meanwhile
          }
        }
      }
    } finally {
      this.busy = false;
    }
  }
}
