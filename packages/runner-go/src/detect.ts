import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DetectedProject } from '@suture/core';
import { modulePath, workspaceUses } from './modules.js';

const read = (file: string): Promise<string | undefined> => readFile(file, 'utf8').catch(() => undefined);

/**
 * A Go module (`go.mod`) or workspace (`go.work`) at `dir`. A module that a workspace above it
 * uses is tested by that workspace's project; `suture init` finds both and may keep either.
 */
export async function detectGo(dir: string): Promise<DetectedProject | null> {
  const work = await read(join(dir, 'go.work'));
  if (work !== undefined) {
    const uses = workspaceUses(work);
    return {
      name: basename(dir),
      reason: `go.work workspace of ${uses.length} module(s)${uses.length ? `: ${uses.slice(0, 5).join(', ')}` : ''}`,
      ...(uses.length === 0
        ? { notes: ['go.work uses no module yet: add one with `go work use ./<module>`'] }
        : {}),
    };
  }
  const mod = await read(join(dir, 'go.mod'));
  if (mod === undefined) return null;
  const path = modulePath(mod);
  return {
    name: path
      ? path
          .split('/')
          .filter((p) => !/^v\d+$/.test(p))
          .at(-1)!
      : basename(dir),
    reason: path ? `go.mod of module ${path}` : 'go.mod (no module line: `go test` will say what is wrong)',
  };
}
