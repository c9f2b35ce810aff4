import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HealInputSchema } from '@suture/core/internal';
import { describe, expect, it } from 'vitest';
import { SUTURE_TOOLS } from '../src/tools.js';

const README = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

/** The names in the first column of the table that follows `heading`. */
function tableKeys(heading: string): string[] {
  const section = README.split(heading)[1] ?? '';
  const table = section.split('\n\n').find((block) => block.trim().startsWith('|')) ?? '';
  return [...table.matchAll(/^\| `([\w-]+)` \|/gm)].map((m) => m[1]!);
}

describe('README.md', () => {
  it('has a row for every tool and every suture_heal argument, and none that is gone', () => {
    expect(tableKeys('## Tools')).toEqual(SUTURE_TOOLS.map((t) => t.name));
    expect(tableKeys('### suture_heal').sort()).toEqual(Object.keys(HealInputSchema.shape).sort());
  });

  it('shows how to register the server with Claude Code and Cursor', () => {
    expect(README).toContain('claude mcp add suture -- npx suture mcp');
    expect(README).toMatch(
      /"mcpServers": \{\s*"suture": \{ "command": "npx", "args": \["suture", "mcp"\] \}/,
    );
  });
});
