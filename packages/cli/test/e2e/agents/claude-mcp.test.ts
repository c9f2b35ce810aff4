import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeBinary, isolatedEnv, removeHomes } from '../../../../llm-claude-cli/test/support/claude.js';
import { BIN, cleanup } from '../cli-support.js';
import { startMockMessages, type MockMessages } from './mock-messages.js';
import { exampleRepo, snapshot } from './support.js';

const TOOL = 'mcp__suture__suture_heal';
let mock: MockMessages;
beforeAll(async () => {
  mock = await startMockMessages(TOOL);
});
afterAll(async () => {
  await mock?.close();
  removeHomes();
  await cleanup();
});

function claude(
  args: string[],
  cwd: string,
  env: Record<string, string | null>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const merged: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(env)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return new Promise((resolve) => {
    // stdin is closed, as in CI: claude waits 3 s for a prompt on an open one.
    const child = spawn(claudeBinary(), args, { cwd, env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The text of every tool_result block the request's messages carry. */
function toolResults(body: MockMessages['requests'][number]['body']): string[] {
  const out: string[] = [];
  for (const m of body?.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const block of m.content as Array<{ type: string; content?: unknown }>) {
      if (block.type !== 'tool_result') continue;
      const c = block.content;
      out.push(
        typeof c === 'string' ? c : (c as Array<{ text?: string }>).map((x) => x.text ?? '').join('\n'),
      );
    }
  }
  return out;
}

describe('the real claude CLI with suture as an MCP server', () => {
  it("calls suture_heal through --mcp-config: the call reaches suture and suture's answer reaches the model", async () => {
    const dir = await exampleRepo(['python']);
    const before = await snapshot(dir);
    const input = {
      change_description: 'summed the units of the stock items in a loop',
      tests: ['tests/test_stock.py::test_total_units', 'tests/test_stock.py::test_needs_reorder'],
    };
    mock.script(
      { kind: 'tool', name: TOOL, input },
      { kind: 'text', text: 'suture proposes one verified patch.' },
    );
    const config = JSON.stringify({
      mcpServers: { suture: { command: process.execPath, args: [BIN, 'mcp'] } },
    });
    const r = await claude(
      [
        '-p',
        'Get me a verified fix for the stock code I just changed.',
        '--output-format',
        'json',
        '--mcp-config',
        config,
        '--strict-mcp-config',
        '--allowedTools',
        TOOL,
        '--max-turns',
        '4',
        '--model',
        'claude-sonnet-4-6',
      ],
      dir,
      {
        ...isolatedEnv(mock.url),
        CLAUDE_CODE_MAX_RETRIES: '0',
        MCP_TIMEOUT: '60000',
        // claude connects MCP servers in the background unless told to wait, and waits 5 s at
        // most: the first turn must offer suture's tools even when a loaded machine starts it slowly.
        MCP_CONNECTION_NONBLOCKING: 'false',
        MCP_CONNECT_TIMEOUT_MS: '120000',
        CI: '1',
      },
    );
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    const result = JSON.parse(r.stdout) as {
      is_error: boolean;
      result: string;
      permission_denials: unknown[];
    };
    expect(result.is_error).toBe(false);
    expect(result.permission_denials).toEqual([]);
    expect(result.result).toBe('suture proposes one verified patch.');

    const turns = mock.requests.filter((q) => q.agent);
    expect(turns.length).toBe(2);
    expect(turns[0]!.body!.tools!.map((t) => t.name)).toContain(TOOL);
    const [answerText] = toolResults(turns[1]!.body);
    const answer = JSON.parse(answerText!) as {
      status: string;
      session_id: string;
      patches: Array<{ diff: string }>;
    };
    expect(answer.status).toBe('fixed');
    expect(answer.patches[0]!.diff).toContain('+    return total');
    // The heal ran in suture, on this repository, and wrote nothing there.
    expect(await readdir(`${dir}/.suture/sessions`)).toEqual([answer.session_id]);
    expect(await snapshot(dir)).toEqual(before);
  }, 600_000);
});
