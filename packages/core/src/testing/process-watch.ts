import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { sep } from 'node:path';

export interface SeenProcess {
  pid: number;
  pgid: number;
  command: string;
}

/** Every live process (zombies are dead: their parent has not reaped them yet). */
function listProcesses(): Array<SeenProcess & { cwd?: string }> {
  if (process.platform === 'linux') {
    const out: Array<SeenProcess & { cwd?: string }> = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (fields[0] === 'Z' || fields[0] === 'X') continue;
        const command = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
        let cwd: string | undefined;
        try {
          cwd = readlinkSync(`/proc/${name}/cwd`);
        } catch {
          // another user's process
        }
        out.push({ pid: Number(name), pgid: Number(fields[2]), command, ...(cwd ? { cwd } : {}) });
      } catch {
        // gone while we looked
      }
    }
    return out;
  }
  const text = execFileSync('ps', ['-A', '-o', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' });
  return text
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && !m[3]!.startsWith('Z'))
    .map((m) => ({ pid: Number(m[1]), pgid: Number(m[2]), command: m[4]! }));
}

const inside = (path: string | undefined, root: string): boolean =>
  path !== undefined && (path === root || path.startsWith(root + sep));

/**
 * Watches the processes a run starts for a project: those working in the project folder or
 * naming it on their command line, and every member of their process groups. The kit uses it to
 * prove that a run that was stopped left no process behind, without knowing how the runner
 * started them.
 */
export class ProcessWatch {
  private readonly pids = new Set<number>();
  private readonly groups = new Set<number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly root: string,
    intervalMs = 100,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  private sample(): void {
    const own = new Set([process.pid, process.ppid]);
    for (const p of listProcesses()) {
      if (own.has(p.pid)) continue;
      if (inside(p.cwd, this.root) || p.command.includes(this.root)) {
        this.pids.add(p.pid);
        // a runner that starts its tools in the kit's own group leaves only the processes to check
        if (p.pgid !== process.pid && p.pgid !== getpgid()) this.groups.add(p.pgid);
      }
    }
  }

  /** How many processes of the project were seen so far. */
  get seen(): number {
    return this.pids.size;
  }

  /** Stops sampling; returns the processes of the watched groups still alive, after up to `settleMs`. */
  async stop(settleMs = 1000): Promise<SeenProcess[]> {
    this.sample();
    clearInterval(this.timer);
    const deadline = Date.now() + settleMs;
    for (;;) {
      const left = this.survivors();
      if (left.length === 0 || Date.now() >= deadline) return left;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Kills what a broken runner left behind, so one failing check does not leak into the next. */
  killAll(): void {
    for (const p of this.survivors()) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }

  private survivors(): SeenProcess[] {
    return listProcesses()
      .filter((p) => p.pid !== process.pid && (this.pids.has(p.pid) || this.groups.has(p.pgid)))
      .map(({ pid, pgid, command }) => ({ pid, pgid, command }));
  }
}

let ownGroup: number | undefined;
/** The kit's own process group (never one of the run's). */
function getpgid(): number {
  if (ownGroup === undefined) {
    try {
      const stat = readFileSync(`/proc/${process.pid}/stat`, 'utf8');
      ownGroup = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    } catch {
      ownGroup = process.pid;
    }
  }
  return ownGroup;
}
