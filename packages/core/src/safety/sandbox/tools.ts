import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** The programs a sandbox is built with (util-linux, iproute2 and a POSIX shell), as absolute paths. */
export interface SandboxTools {
  unshare: string;
  nsenter: string;
  mount: string;
  sh: string;
  /** iproute2's `ip`, to bring up the loopback of a private network; absent on minimal images. */
  ip?: string;
}

/** Where system tools live even when PATH leaves them out (`ip` and `mount` are in sbin). */
const SYSTEM_DIRS = ['/usr/sbin', '/sbin', '/usr/bin', '/bin'];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The absolute path of `command` on `path` (a PATH value), or undefined. */
export function findExecutable(command: string, path: string | undefined): string | undefined {
  if (command.includes('/')) return executable(command) ? command : undefined;
  for (const dir of (path ?? '').split(delimiter).filter(Boolean)) {
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, command);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}

/** Finds the sandbox's tools; returns the names of the missing ones instead when any is. */
export function findSandboxTools(env: NodeJS.ProcessEnv = process.env): SandboxTools | { missing: string[] } {
  const path = [env.PATH ?? '', ...SYSTEM_DIRS].join(delimiter);
  const found = {
    unshare: findExecutable('unshare', path),
    nsenter: findExecutable('nsenter', path),
    mount: findExecutable('mount', path),
    sh: findExecutable('sh', path),
  };
  const missing = Object.entries(found)
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  if (missing.length > 0) return { missing };
  const ip = findExecutable('ip', path);
  return { ...(found as Omit<SandboxTools, 'ip'>), ...(ip ? { ip } : {}) };
}
