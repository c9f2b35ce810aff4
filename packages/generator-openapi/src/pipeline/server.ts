import { spawn } from 'node:child_process';
import { ConfigError } from '@suture/core';
import { probe } from './probe.js';

export interface StartedServer {
  pid: number;
  /** The last lines it printed. */
  tail(): string;
  /** Stops its whole process group (TERM, then KILL after a grace period). */
  stop(): Promise<void>;
}

const TAIL_BYTES = 4000;

/**
 * Starts the service with a shell command in its own process group and waits until the base URL
 * answers. A command that exits first, or a service that never answers, is a ConfigError with
 * the tail of its output.
 */
export async function startServer(
  command: string,
  baseUrl: string,
  options: { cwd: string; env?: NodeJS.ProcessEnv; waitMs?: number },
): Promise<StartedServer> {
  const child = spawn('sh', ['-c', command], {
    cwd: options.cwd,
    env: options.env ?? process.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-TAIL_BYTES);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const exit = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      resolve();
    });
    child.on('error', (error) => {
      output += `\n${error.message}`;
      exited = { code: null, signal: null };
      resolve();
    });
  });
  const tail = (): string => output.trimEnd().split('\n').slice(-20).join('\n');
  const stop = async (): Promise<void> => {
    if (exited || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await exit;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  for (;;) {
    if (exited) {
      const how = exited.signal ? `was killed by ${exited.signal}` : `exited with code ${exited.code}`;
      throw new ConfigError(
        `--server "${command}" ${how} before ${baseUrl} answered; its output ends:\n${tail() || '(nothing)'}`,
      );
    }
    const answer = await probe(baseUrl, 2000);
    if (answer.ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new ConfigError(
        `--server "${command}" started, but ${baseUrl} did not answer within ${Math.round((options.waitMs ?? 60_000) / 1000)} s (${answer.reason}); check --base-url against the port the service listens on; its output ends:\n${tail() || '(nothing)'}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { pid: child.pid!, tail, stop };
}
