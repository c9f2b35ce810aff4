import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const EXAMPLE = fileURLToPath(new URL('../../../examples/api-service/', import.meta.url));
export const TOKEN = 'e2e-token';

/** A port nothing listens on now (the OS picks it), for a service started after. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The generated suites need pytest, requests and jsonschema: a clear failure naming them when absent. */
export function requirePythonModules(): void {
  try {
    execFileSync('python3', ['-c', 'import pytest, requests, jsonschema'], { stdio: 'pipe' });
  } catch (error) {
    throw new Error(
      `python3 with pytest, requests and jsonschema is needed to run the generated suites (python3 -m pip install pytest requests jsonschema): ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`,
    );
  }
}

export interface Service {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** The example service on a free port, up when this resolves. */
export async function startExampleService(): Promise<Service> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['server.mjs', '--port', String(port)], {
    cwd: EXAMPLE,
    env: { ...process.env, API_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the example service exited with ${code}: ${out}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function tempDir(prefix: string): Promise<{ dir: string; dispose(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, dispose: () => rm(dir, { recursive: true, force: true }) };
}

/** A stream that keeps what is written, for the progress a run prints. */
export function captured(): NodeJS.WritableStream & { text(): string } {
  const chunks: string[] = [];
  const stream = {
    write(chunk: string | Buffer): boolean {
      chunks.push(String(chunk));
      return true;
    },
    text: () => chunks.join(''),
    isTTY: false,
  };
  return stream as unknown as NodeJS.WritableStream & { text(): string };
}
