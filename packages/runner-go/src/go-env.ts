import { execFile } from 'node:child_process';

/** What `go env` says about the user's toolchain, read with suture's own environment. */
export interface GoEnv {
  GOCACHE?: string;
  GOMODCACHE?: string;
  GOVERSION?: string;
}

const memo = new Map<string, Promise<GoEnv | undefined>>();

/**
 * `go env -json GOCACHE GOMODCACHE GOVERSION` as the user's shell would answer it: started directly
 * (not through the engine's sandboxed process runner), so the caches named are the user's own and
 * not the empty ones of the sandbox's private HOME. Undefined when go cannot be started.
 */
export function userGoEnv(go: string, env: NodeJS.ProcessEnv = process.env): Promise<GoEnv | undefined> {
  const key = `${go}\0${env.HOME ?? ''}\0${env.GOCACHE ?? ''}\0${env.GOMODCACHE ?? ''}`;
  let found = memo.get(key);
  if (!found) {
    found = new Promise((resolve) => {
      execFile(
        go,
        ['env', '-json', 'GOCACHE', 'GOMODCACHE', 'GOVERSION'],
        { env: { ...env, GOTOOLCHAIN: env.GOTOOLCHAIN ?? 'local' }, timeout: 30_000 },
        (error, stdout) => {
          if (error) return resolve(undefined);
          try {
            const parsed = JSON.parse(stdout) as GoEnv;
            resolve(parsed);
          } catch {
            resolve(undefined);
          }
        },
      );
    });
    memo.set(key, found);
  }
  return found;
}
