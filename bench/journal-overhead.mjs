#!/usr/bin/env node
// Cost of suture's workspace safety: journaled atomic writes (backup + manifest fsync + temp file
// + rename) against plain writeFile, restore of every file, recover after an abandoned journal,
// and the validation of a typical proposal. Prints figures; it is not a test.
//   node bench/journal-overhead.mjs [files=200] [bytes=4096]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal, recover, validateEdits } from '../packages/core/dist/internal.js';

const FILES = Number(process.argv[2] ?? 200);
const BYTES = Number(process.argv[3] ?? 4096);
const content = (seed) => `${`# file ${seed}\n`}${'x = 1\n'.repeat(Math.max(1, Math.floor(BYTES / 6)))}`;

async function tree() {
  const root = await mkdtemp(join(tmpdir(), 'suture-bench-journal-'));
  await mkdir(join(root, 'src'));
  for (let i = 0; i < FILES; i++) await writeFile(join(root, 'src', `m${i}.py`), content(i));
  return root;
}
const time = async (fn) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};
const per = (ms) => `${ms.toFixed(1)} ms (${((ms / FILES) * 1000).toFixed(0)} µs/file)`;

const plainRoot = await tree();
const plain = await time(async () => {
  for (let i = 0; i < FILES; i++) await writeFile(join(plainRoot, 'src', `m${i}.py`), content(`new ${i}`));
});

const root = await tree();
const journal = await Journal.create(root, 'bench');
const journaled = await time(async () => {
  for (let i = 0; i < FILES; i++) await journal.write(`src/m${i}.py`, content(`new ${i}`));
});
const rewrite = await time(async () => {
  for (let i = 0; i < FILES; i++) await journal.write(`src/m${i}.py`, content(`again ${i}`));
});
const restore = await time(() => journal.restore());
await journal.close();

const crashed = await Journal.create(root, 'abandoned');
for (let i = 0; i < FILES; i++) await crashed.write(`src/m${i}.py`, content(`lost ${i}`));
const recovered = await time(() => recover(root));

const policy = {
  editable: 'both',
  allowedPaths: ['**'],
  deniedPaths: [],
  allowTestWeakening: false,
  allowNewFiles: false,
  maxFilesPerAttempt: 5,
};
const scope = {
  entries: [{ file: 'src/m1.py', symbols: [], role: 'source', reasons: ['bench'], depth: 0 }],
  excluded: [],
};
const edits = [{ file: 'src/m1.py', search: '# file 1\n', replace: '# file one\n' }];
const REPS = 200;
const validate = await time(async () => {
  for (let i = 0; i < REPS; i++) await validateEdits({ projectRoot: root, edits, scope, policy });
});

console.log(`files: ${FILES} × ${BYTES} bytes`);
console.log(`plain writeFile:              ${per(plain)}`);
console.log(`journaled first write:        ${per(journaled)}`);
console.log(`journaled rewrite:            ${per(rewrite)}`);
console.log(`restore all:                  ${per(restore)}`);
console.log(`recover abandoned journal:    ${per(recovered)}`);
console.log(`validate one search/replace:  ${(validate / REPS).toFixed(2)} ms per proposal`);
await rm(plainRoot, { recursive: true, force: true });
await rm(root, { recursive: true, force: true });
