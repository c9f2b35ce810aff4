import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigSchema } from '@suture/core';
import { describe, expect, it } from 'vitest';
import { anchors, codeBlocks, links, markdownFiles, REPO } from './markdown.js';

const files = markdownFiles();

describe('the documentation', () => {
  it('finds the guide, the plugin guides and the packages READMEs', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/guide/getting-started.md',
        'docs/runner.md',
        'docs/architecture.md',
      ]),
    );
  });

  it.each(files)('%s links only to files and headings that exist', (file) => {
    const broken = links(file)
      .filter((l) => l.target)
      .filter(({ target }) => {
        const path = target!.path.replace(/\/$/, '');
        if (!existsSync(join(REPO, path))) return true;
        return target!.anchor !== undefined && path.endsWith('.md') && !anchors(path).has(target!.anchor);
      })
      .map((l) => l.href);
    expect(broken).toEqual([]);
  });

  it.each(files)('%s quotes only configs that load', (file) => {
    const text = readFileSync(join(REPO, file), 'utf8');
    const configs = codeBlocks(text)
      .filter((b) => b.lang === 'json' && /^\s*\{/.test(b.code))
      .map((b) => JSON.parse(b.code) as { projects?: unknown })
      // a suture config: a list of projects, each with the runner that runs it
      .filter(
        (c) =>
          Array.isArray(c.projects) && c.projects.every((p) => typeof p === 'object' && p && 'runner' in p),
      );
    for (const config of configs) {
      const parsed = ConfigSchema.safeParse(config);
      expect(parsed.error?.issues ?? [], JSON.stringify(config)).toEqual([]);
    }
  });

  it('keeps the root README a front door: under 200 lines, linking to each page of the guide', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThan(200);
    for (const page of ['getting-started', 'runners', 'fixers', 'commands', 'safety', 'benchmarks'])
      expect(readme).toContain(`docs/guide/${page}.md`);
  });
});

describe('the link reader', () => {
  it('finds relative, GitHub and site links, and none inside code', () => {
    const text = [
      'See [a](../runner.md#missing), [b](https://github.com/suture-dev/suture/blob/main/packages/nope/README.md)',
      'and [c](/guide/fixers#ladder).',
      '```md',
      '[not a link](nowhere.md)',
      '```',
    ].join('\n');
    expect(links('docs/guide/x.md', text).map((l) => l.target)).toEqual([
      { path: 'docs/runner.md', anchor: 'missing' },
      { path: 'packages/nope/README.md' },
      { path: 'docs/guide/fixers.md', anchor: 'ladder' },
    ]);
    expect(anchors('docs/guide/safety.md').has('safety-measured')).toBe(true);
    expect(anchors('docs/guide/safety.md').has('missing')).toBe(false);
  });
});
