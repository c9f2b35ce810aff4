import { access, readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The guides quote the examples: a quote must stay the examples' real code, and links must lead somewhere.
const docs = fileURLToPath(new URL('../../../', import.meta.url));
const guides = (await readdir(docs)).filter((f) => f.endsWith('.md'));

describe.each(guides)('docs/%s', (guide) => {
  it('quotes the examples verbatim', async () => {
    const text = await readFile(join(docs, guide), 'utf8');
    for (const m of text.matchAll(/<!-- quote: (\S+) -->\n\n```\w*\n([\s\S]*?)\n```/g)) {
      const source = await readFile(join(docs, m[1]!), 'utf8');
      expect(source, `${guide} quotes ${m[1]}`).toContain(m[2]!);
    }
  });

  it('links to files that exist', async () => {
    const text = await readFile(join(docs, guide), 'utf8');
    for (const m of text.matchAll(/\]\(((?!https?:)[^)#\s]+)(#[^)]*)?\)/g)) {
      const target = join(dirname(join(docs, guide)), m[1]!);
      await expect(
        access(target).then(() => target),
        `${guide} links to ${m[1]}`,
      ).resolves.toBe(target);
    }
  });
});
