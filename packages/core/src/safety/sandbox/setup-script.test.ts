import { describe, expect, it } from 'vitest';
import { parseMountInfo, setupOutcome, setupScript, type MountPoint } from './setup-script.js';
import type { SetupOp } from './holder.js';
import type { SandboxTools } from './tools.js';

const tools: SandboxTools = {
  unshare: '/usr/bin/unshare',
  nsenter: '/usr/bin/nsenter',
  mount: '/usr/bin/mount',
  sh: '/bin/sh',
  ip: '/sbin/ip',
};

const MOUNTINFO = [
  '23 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
  '24 23 0:5 / /proc rw,nosuid - proc proc rw',
  '25 24 0:6 / /proc/sys/fs/binfmt_misc rw - binfmt_misc binfmt_misc rw',
  '26 23 0:7 / /dev/pts rw - devpts devpts rw',
  '27 23 0:8 / /sys ro,nosuid - sysfs sysfs ro',
  '28 23 0:9 / /home/u/with\\040space rw - tmpfs tmpfs rw',
  '29 23 0:10 / /srv/cache rw - tmpfs tmpfs rw',
  '30 29 0:11 / /srv/cache/inner rw - tmpfs tmpfs rw',
  '31 23 0:12 / /srv/cache rw - tmpfs tmpfs rw',
].join('\n');

/** The commands of a script's groups, as a list of argument lines. */
const commandsOf = (ops: SetupOp[], table: MountPoint[] = parseMountInfo(MOUNTINFO)) =>
  setupScript(ops, table, tools, '/tmp/t').groups.flatMap((g) => g.cmds.map((c) => c.args.join(' ')));

describe('a holder setup script', () => {
  it('reads mount points as the kernel escapes them, with their read-only flag', () => {
    const points = parseMountInfo(MOUNTINFO);
    expect(points.find((p) => p.point === '/home/u/with space')).toEqual({
      point: '/home/u/with space',
      readOnly: false,
    });
    expect(points.find((p) => p.point === '/sys')!.readOnly).toBe(true);
  });

  it('remounts every writable point read-only once, leaving /proc, the terminals and read-only ones', () => {
    const cmds = commandsOf([{ op: 'stash', src: '/home/u/proj', dst: '/state/lower' }, { op: 'read-only' }]);
    expect(cmds).toEqual([
      '/usr/bin/mount --bind /home/u/proj /state/lower',
      '/usr/bin/mount -o remount,bind,ro /',
      '/usr/bin/mount -o remount,bind,ro /home/u/with space',
      '/usr/bin/mount -o remount,bind,ro /srv/cache',
      '/usr/bin/mount -o remount,bind,ro /srv/cache/inner',
      // the stash is a mount of its own by then
      '/usr/bin/mount -o remount,bind,ro /state/lower',
    ]);
  });

  it('makes the mounts a writable bind carries along writable, as they were before the sandbox', () => {
    const cmds = commandsOf([{ op: 'read-only' }, { op: 'bind', src: '/srv/cache', dst: '/view/cache' }]);
    expect(cmds.slice(-3)).toEqual([
      '/usr/bin/mount --rbind /srv/cache /view/cache',
      '/usr/bin/mount -o remount,bind,rw /view/cache',
      '/usr/bin/mount -o remount,bind,rw /view/cache/inner',
    ]);
    // a point that was read-only before stays so under a writable bind
    const ro = commandsOf(
      [{ op: 'read-only' }, { op: 'bind', src: '/', dst: '/view' }],
      parseMountInfo(MOUNTINFO),
    );
    expect(ro).not.toContain('/usr/bin/mount -o remount,bind,rw /view/sys');
    expect(ro).toContain('/usr/bin/mount -o remount,bind,rw /view/srv/cache');
  });

  it('does consecutive mounts through one mount --all over a table, the root and a folder under a mount apart', () => {
    const plan = setupScript(
      [{ op: 'read-only' }, { op: 'bind', src: '/a', dst: '/x/a' }, { op: 'bind', src: '/b', dst: '/x/a/b' }],
      parseMountInfo('23 1 254:0 / / rw - ext4 /dev/vda rw\n28 23 0:9 / /srv rw - tmpfs t rw'),
      tools,
      '/tmp/t',
    );
    // the root is remounted alone; /srv and the first bind share a table; the second bind's
    // folder lies under the first one's mount, so it starts a table of its own
    expect(plan.groups.map((g) => g.cmds.length)).toEqual([1, 3, 2]);
    expect(plan.tables.map((t) => t.path)).toEqual(['/tmp/t/fstab-1', '/tmp/t/fstab-2']);
    expect(plan.tables[0]!.text).toBe(
      'none /srv none remount,bind,ro 0 0\n/a /x/a none rbind 0 0\nnone /x/a none remount,bind,rw 0 0\n',
    );
    expect(plan.script).toContain('exec 5</tmp/t/fstab-1\nexec 6</tmp/t/fstab-2\n');
    // a table holding optional lines is judged once mount --all is done with it
    expect(plan.script).toContain('run 1 /usr/bin/mount -a -T /proc/self/fd/5\n');
    expect(plan.script).toContain('run 2 /usr/bin/mount -a -T /proc/self/fd/6 || return 1');
    // a folder a bind mounts on is made first
    expect(plan.script).toMatch(/\[ -d \/x\/a\/b \] \|\| mkdir -p -- \/x\/a\/b 2>\/dev\/null\nrun 2 /);
  });

  it('quotes what a shell would read otherwise', () => {
    const plan = setupScript(
      [{ op: 'bind', src: "/it's a $dir", dst: "/it's a $dir" }],
      parseMountInfo(MOUNTINFO),
      tools,
      '/tmp/t',
    );
    expect(plan.tables[0]!.text).toContain("/it's\\040a\\040$dir /it's\\040a\\040$dir none rbind 0 0");
    expect(plan.script).toContain("mkdir -p -- '/it'\\''s a $dir'");
  });

  it('tells optional failures from the one that stopped the setup', () => {
    const ops: SetupOp[] = [
      { op: 'loopback', ip: '/sbin/ip' },
      { op: 'read-only' },
      { op: 'bind', src: '/srv/cache', dst: '/view/cache' },
    ];
    const plan = setupScript(ops, parseMountInfo(MOUNTINFO), tools, '/tmp/t');
    const table = plan.groups.findIndex((g) => g.cmds.length > 1);
    const ok = setupOutcome(
      plan,
      ops,
      `\x1e0\x1fRTNETLINK answers: Operation not permitted\x1e${table}\x1fmount: /srv/cache/inner: permission denied.\nmount: /view/cache/inner: permission denied.`,
      0,
    );
    expect(ok.facts).toEqual({
      network: false,
      readOnly: true,
      readOnlyFailures: ['/srv/cache/inner: permission denied.'],
    });
    expect(ok.notes).toEqual([
      'the loopback interface could not be brought up: RTNETLINK answers: Operation not permitted',
      '/view/cache/inner stays read-only in the sandbox: permission denied.',
    ]);
    expect(() =>
      setupOutcome(plan, ops, `\x1e${table}\x1fmount: /view/cache: mount point does not exist.`, 1),
    ).toThrow('mount: /view/cache: mount point does not exist.');
    expect(() => setupOutcome(plan, ops, '', 127)).toThrow(/status 127/);
  });
});
