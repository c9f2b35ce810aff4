import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerReporterConformance } from '@suture/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import annotations from '../src/index.js';

let dir: string;
let output: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'annotations-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

registerReporterConformance(
  { describe, it },
  () => {
    output = join(dir, `${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
    return annotations({ output });
  },
  {
    // the kit's run heals one failing test in check mode (validated, not applied), or is
    // cancelled before the heal, which leaves the failure failing
    async check({ report }) {
      const text = await readFile(output, 'utf8');
      const expected = report.error
        ? `::error title=suture::${report.error}`
        : report.cancelled
          ? '::error file='
          : 'title=suture%3A fix validated but not applied in ';
      if (!text.includes(expected)) throw new Error(`expected ${expected} in:\n${text}`);
    },
  },
);
