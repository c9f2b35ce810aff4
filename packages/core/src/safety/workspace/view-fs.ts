import { join } from 'node:path';
import type { Holder } from '../sandbox/holder.js';
import type { PathFs } from '../paths.js';

/**
 * A view's files as a holder's agent sees them: suture's own process sees the user's tree at the
 * project's path, the agent (inside the namespace) sees the view there.
 */
export interface AgentFs extends PathFs {
  read(path: string): Promise<Buffer | undefined>;
  write(path: string, data: Buffer): Promise<void>;
  remove(path: string): Promise<void>;
  /** Freezes a file's current bytes and times in the view; false when it is not a file. */
  pin(path: string): Promise<boolean>;
  bind(src: string, dst: string): Promise<void>;
}

export function agentFs(holder: Holder): AgentFs {
  return {
    async read(path) {
      const data = await holder.request<string | null>('read', { path });
      return data === null ? undefined : Buffer.from(data, 'base64');
    },
    write: (path, data) => holder.request<void>('write', { path, data: data.toString('base64') }),
    remove: (path) => holder.request<void>('remove', { path }),
    pin: (path) => holder.request<boolean>('pin', { path }),
    bind: (src, dst) => holder.request<void>('bind', { src, dst }),
    async lstat(path) {
      const s = await holder.request<{ file: boolean; symlink: boolean }>('lstat', { path });
      return { isFile: () => s.file, isSymbolicLink: () => s.symlink };
    },
    realpath: (path) => holder.request<string>('realpath', { path }),
  };
}

/** `rel` inside `root` as an absolute path. */
export const under = (root: string, rel: string): string => join(root, rel);
