import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedOptions } from './readme-options.js';

let dir: string;

async function readme(text: string): Promise<string> {
  const file = join(dir, `README-${Math.random().toString(36).slice(2)}.md`);
  await writeFile(file, text);
  return file;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'suture-readme-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('documentedOptions', () => {
  it('reads the first column of the table under the heading, every backticked name of a cell', async () => {
    const file = await readme(
      [
        '# @suture/x',
        '',
        '| `notThis` | a table before the heading |',
        '|---|---|',
        '',
        '## Options',
        '',
        'All optional.',
        '',
        '| option | default | meaning |',
        '| :--- | --- | --- |',
        '| `model` | `gpt` | the `model` to use |',
        '| `baseURL`, `apiKey` | none | endpoint and key |',
        '',
        '| `later` | a second table is not read |',
        '|---|---|',
        '## Next',
      ].join('\n'),
    );
    expect(documentedOptions(file)).toEqual(['model', 'baseURL', 'apiKey']);
  });

  it('takes another heading, and stops at the next heading', async () => {
    const file = await readme(
      '### heal keys\n| key | meaning |\n|-|-|\n| `maxAttempts` | 3 |\n## Other\n| `x` |\n|-|\n',
    );
    expect(documentedOptions(file, 'heal keys')).toEqual(['maxAttempts']);
  });

  it('names the file and what to write when the heading or the table is missing', async () => {
    const none = await readme('# x\n\nno options\n');
    expect(() => documentedOptions(none)).toThrow(
      `${none}: no heading "Options"; add one above the options table`,
    );
    const noTable = await readme('## Options\n\nnone yet\n');
    expect(() => documentedOptions(noTable)).toThrow(
      `${noTable}: no table under "Options"; write one as | option | default | meaning |, a row per option`,
    );
  });
});
