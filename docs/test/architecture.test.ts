import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_LAYERS, layerZones } from '../../scripts/core-layers.mjs';
import { REPO } from './markdown.js';

const PAGE = readFileSync(join(REPO, 'docs/architecture.md'), 'utf8');
const CORE_SRC = join(REPO, 'packages/core/src');

/** The rows of the table that follows `<!-- layers -->`: layer, what it holds, what it may import. */
function pageLayers(): Array<{ layer: string; holds: string; imports: string[] }> {
  const table = PAGE.split('<!-- layers -->')[1]!.trim().split('\n\n')[0]!;
  return table
    .split('\n')
    .slice(2)
    .map((row) =>
      row
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim()),
    )
    .map(([layer, holds, imports]) => ({
      layer: layer!.replace(/`/g, ''),
      holds: holds!,
      imports: imports === 'nothing' ? [] : imports!.split(',').map((s) => s.trim().replace(/`/g, '')),
    }));
}

describe('docs/architecture.md', () => {
  it('draws the layers the lint fences are built from', () => {
    expect(pageLayers()).toEqual(CORE_LAYERS.map((l) => ({ ...l, imports: [...l.imports] })));
  });

  it('names every folder of core, and every layer it names is a folder', () => {
    const folders = readdirSync(CORE_SRC, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    expect(CORE_LAYERS.map((l) => l.layer).sort()).toEqual(folders);
  });

  // loading the lint config loads typescript-eslint and its plugins: seconds on a cold start
  it('is enforced: the lint config fences core with a zone for every import a layer may not make', async () => {
    // @ts-expect-error: the lint config is plain JavaScript with no declarations
    const config = (await import('../../eslint.config.mjs')).default as Array<{
      files?: string[];
      rules?: Record<string, unknown>;
    }>;
    const fence = config.find((c) => c.rules?.['import-x/no-restricted-paths']);
    expect(fence?.files).toEqual(['packages/core/src/**/*.ts']);
    expect(fence?.rules?.['import-x/no-restricted-paths']).toEqual(['error', { zones: layerZones() }]);
    // a layer may import only what its row says: engine is kept from host and reporters
    const zones = layerZones();
    expect(zones).toContainEqual(
      expect.objectContaining({ target: './packages/core/src/engine', from: './packages/core/src/host' }),
    );
    expect(zones).toContainEqual(
      expect.objectContaining({ target: './packages/core/src/api', from: './packages/core/src/safety' }),
    );
    expect(zones).not.toContainEqual(
      expect.objectContaining({ target: './packages/core/src/engine', from: './packages/core/src/api' }),
    );
  }, 60_000);
});
