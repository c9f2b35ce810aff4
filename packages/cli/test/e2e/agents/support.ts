import { execFileSync } from 'node:child_process';
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { snapshotTree } from '@suture/core/testing';
import { BIN, REPO, workspace } from '../cli-support.js';

export type ExampleProject = 'python' | 'cpp' | 'js';

const RUNNERS: Record<ExampleProject, string> = { python: 'pytest', cpp: 'ctest', js: 'jest' };

/** What suture, the runners and the toolchains write that is not the project's source. */
export const NOT_SOURCE = [
  '.suture/**',
  '.git/**',
  '**/__pycache__/**',
  '**/.pytest_cache/**',
  '**/build-suture/**',
];

export const snapshot = (dir: string): Promise<Map<string, string>> => snapshotTree(dir, NOT_SOURCE);

/**
 * A git repository (under the monorepo, so the plugins and Jest resolve) holding projects of the
 * bundled polyglot example: each has a mechanical failure the hints fixer heals (a NameError, a
 * missing #include, a ReferenceError) and a logic bug it cannot.
 */
export async function exampleRepo(
  projects: readonly ExampleProject[],
  fixers: unknown[] = ['hints'],
): Promise<string> {
  const dir = await workspace();
  for (const name of projects)
    await cp(join(REPO, 'examples/polyglot', name), join(dir, name), {
      recursive: true,
      filter: (src) => !/__pycache__|\.pytest_cache|build-suture|\.suture/.test(src),
    });
  await writeFile(join(dir, '.gitignore'), '.suture/\nbuild-suture/\n__pycache__/\n');
  await writeFile(
    join(dir, 'suture.config.json'),
    JSON.stringify(
      { projects: projects.map((name) => ({ name, root: name, runner: RUNNERS[name] })), fixers },
      null,
      2,
    ),
  );
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', ...args], { cwd: dir });
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'example');
  return dir;
}

export interface Connected {
  client: Client;
  transport: StdioClientTransport;
  /** What the server wrote on stderr. */
  stderr: () => string;
}

/** The MCP SDK's own client, spawning the built `suture mcp` over stdio in `dir`. */
export async function connectSuture(dir: string, env: Record<string, string> = {}): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: dir,
    env: { ...(process.env as Record<string, string>), CI: '1', ...env },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const client = new Client({ name: 'suture-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => err };
}

/** Long enough for a cold CMake + GoogleTest build on a loaded machine; progress resets it. */
export const CALL = { timeout: 900_000, resetTimeoutOnProgress: true } as const;

export interface ToolResult {
  isError?: boolean;
  content: Array<{ type: string; text: string }>;
  structuredContent?: Record<string, unknown>;
}

export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  onProgress?: (message: string) => void,
): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, {
    ...CALL,
    ...(onProgress ? { onprogress: (p: { message?: string }) => onProgress(String(p.message)) } : {}),
  })) as ToolResult;
}
