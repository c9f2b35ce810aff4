import { createHash, randomBytes } from 'node:crypto';
import { readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { release, version } from 'node:os';
import { join } from 'node:path';
import { privateDir, stateBase } from '../workspace/state-dir.js';
import { AGENT_SOURCE } from './agent-source.js';
import type { IsolationSupport } from './support.js';
import type { SandboxTools } from './tools.js';

/** Raise when the probe itself changes what it checks. */
const PROBE_VERSION = 1;
const FILE = 'isolation-support.json';

/** The kernel settings that let an unprivileged user make namespaces (absent ones count as such). */
const POLICY_FILES = [
  '/proc/sys/kernel/unprivileged_userns_clone',
  '/proc/sys/user/max_user_namespaces',
  '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
  '/proc/sys/kernel/unprivileged_userns_apparmor_policy',
];

const fileId = async (path: string): Promise<string> => {
  const s = await stat(path).catch(() => undefined);
  return s ? `${path}:${s.ino}:${s.size}:${s.mtimeMs}` : `${path}:none`;
};

/**
 * What a probe's answer depends on: the kernel, its namespace policy, the mounts (which of them
 * can be made read-only), the tools and Node that build the sandbox, and the probe's own code.
 * Any change there probes again.
 */
async function probeKey(tools: SandboxTools): Promise<string> {
  const read = (path: string): Promise<string> => readFile(path, 'utf8').catch(() => 'none');
  const mounts = (await read('/proc/self/mountinfo'))
    .split('\n')
    .map((l) => l.split(' ').slice(4, 6).join(' '))
    .join('\n');
  const parts = [
    String(PROBE_VERSION),
    release(),
    version(),
    String(process.getuid?.()),
    String(process.getgid?.()),
    ...(await Promise.all(POLICY_FILES.map(read))),
    mounts,
    ...(await Promise.all([...Object.values(tools), process.execPath].map(fileId))),
    AGENT_SOURCE,
  ];
  return createHash('sha256').update(parts.join('\0')).digest('hex');
}

function plausible(value: unknown): value is IsolationSupport {
  const v = value as Partial<IsolationSupport> | null;
  return (
    !!v &&
    typeof v === 'object' &&
    v.namespaces === true &&
    ['overlay', 'network', 'readOnly', 'procMount'].every(
      (k) => typeof (v as Record<string, unknown>)[k] === 'boolean',
    ) &&
    Array.isArray(v.reasons) &&
    !!v.tools &&
    typeof v.tools.unshare === 'string'
  );
}

/**
 * The probe's answer kept in the user's private state folder, keyed by everything it depends on:
 * each suture command is a process of its own, and probing (a sandbox set up and joined twice)
 * cost every gate a few hundred milliseconds. Only a machine that has namespaces is remembered;
 * one that has not is probed each time, so a fix (a sysctl, a package) is seen at once.
 */
export async function cachedSupport(
  tools: SandboxTools,
  env: NodeJS.ProcessEnv,
  probe: () => Promise<IsolationSupport>,
): Promise<IsolationSupport> {
  const [base, key] = await Promise.all([privateDir(stateBase(env)), probeKey(tools)]);
  const file = join(base, FILE);
  const saved = await readFile(file, 'utf8')
    .then((text) => JSON.parse(text) as { key?: string; support?: unknown })
    .catch(() => undefined);
  if (saved?.key === key && plausible(saved.support)) return saved.support;
  const support = await probe();
  if (support.namespaces) {
    const tmp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await writeFile(tmp, JSON.stringify({ key, support }), { mode: 0o600 });
      await rename(tmp, file);
    } catch {
      // Not remembered: the next command probes again.
      await rm(tmp, { force: true });
    }
  }
  return support;
}
