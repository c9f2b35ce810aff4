#!/usr/bin/env node
// How long a coding agent waits for suture's MCP server: from spawning `suture mcp` (and the
// `suture-mcp` bin) to its answer to `initialize`, which clients wait for before they show the
// server as connected, and to its answer to `tools/list`, which waits for suture's engine to load.
// Also Node alone (`node -e 0`) for scale. Warm runs, median of --repeats. Prints figures; it is
// not a test.
//   node bench/mcp-start.mjs [--repeats N]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, ms, REPO, repeatsArg, SUTURE, timed } from './lib/small-project.mjs';

const REPEATS = repeatsArg(process.argv.slice(2), 7);
const SUTURE_MCP = join(REPO, 'packages/mcp/bin/suture-mcp.mjs');

/** One start of the server: ms to the answers to initialize (id 1) and tools/list (id 2). */
function once(argv, cwd) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, argv, { cwd, stdio: ['pipe', 'pipe', 'ignore'] });
    const at = {};
    let rest = '';
    const send = (m) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    child.stdout.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) {
        const { id } = JSON.parse(line);
        if (id === undefined || at[id] !== undefined) continue;
        at[id] = performance.now() - started;
        if (id === 1) {
          send({ method: 'notifications/initialized' });
          send({ id: 2, method: 'tools/list' });
        } else if (id === 2) {
          child.kill();
          resolve({ initialize: at[1], tools: at[2] });
        }
      }
    });
    child.on('error', reject);
    child.on(
      'exit',
      () => at[2] === undefined && reject(new Error(`${argv.join(' ')} ended before tools/list`)),
    );
    send({
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    });
  });
}

const cwd = mkdtempSync(join(tmpdir(), 'suture-mcp-start-'));
try {
  const node = [];
  for (let i = 0; i < REPEATS; i++) node.push(timed(process.execPath, ['-e', '0'], cwd).ms);
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}, ${REPEATS} warm runs each (median)`,
  );
  console.log(`node -e 0: ${ms(median(node))}`);
  console.log('| server | initialize answered | tools/list answered |');
  console.log('|---|---|---|');
  for (const [name, argv] of [
    ['suture mcp', [SUTURE, 'mcp']],
    ['suture-mcp', [SUTURE_MCP]],
  ]) {
    await once(argv, cwd);
    const runs = [];
    for (let i = 0; i < REPEATS; i++) runs.push(await once(argv, cwd));
    console.log(
      `| ${name} | ${ms(median(runs.map((r) => r.initialize)))} | ${ms(median(runs.map((r) => r.tools)))} |`,
    );
  }
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
