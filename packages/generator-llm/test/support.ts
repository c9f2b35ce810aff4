import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GenerateRequest, GeneratorContext } from '@suture/core';
import { silentLogger } from '@suture/core/testing';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const SHOP = fileURLToPath(new URL('./fixtures/shop', import.meta.url));
const dirs: string[] = [];

/**
 * A copy of a fixture under the monorepo's .tmp folder, so a fixer named in the generator's
 * options (`openai`) resolves through node_modules as it would in a user's repository.
 */
export async function copyOf(fixture: string): Promise<string> {
  await mkdir(join(REPO, '.tmp'), { recursive: true });
  const dir = await mkdtemp(join(REPO, '.tmp', 'generator-llm-'));
  dirs.push(dir);
  await cp(fixture, dir, { recursive: true });
  return dir;
}

export async function cleanup(): Promise<void> {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** The request the auto-run engine makes for the shop's stock module. */
export function stockRequest(root: string, over: Partial<GenerateRequest> = {}): GenerateRequest {
  return {
    project: { name: 'shop', root, language: 'python' },
    goal: 'tests',
    inputs: ['shop/stock.py'],
    existingTests: ['tests/test_misc.py', 'tests/test_stock.py'],
    options: {},
    callers: ['shop/orders.py'],
    ...over,
  };
}

export function context(root: string): GeneratorContext {
  return { signal: new AbortController().signal, logger: silentLogger, root };
}

/** A model's answer that creates `file` with `content`, with every field the strict schema requires. */
export function createAnswer(file: string, content: string): Record<string, unknown> {
  return {
    verdict: 'edits',
    rationale: 'tests of each branch',
    edits: [{ file, search: null, replace: null, content }],
    bug: null,
    diagnosis: null,
  };
}
