#!/usr/bin/env node
// What a user's `npm install -D @suture/cli @suture/runner-pytest @suture/fixer-hints` costs: every
// package packed as it would be published (files and size of each tarball), then those three
// (with @suture/core, which they depend on) installed from the tarballs into an empty folder
// outside the workspace; prints the install's wall time and the size of node_modules, its
// largest entries, whether tree-sitter loaded a prebuilt binary or was compiled, how many copies
// of tree-sitter the install holds and the warnings npm printed.
//   node bench/install.mjs [--cold] [--set python|cpp|js] [--settings] [extra-package...]
// --cold installs with an empty npm cache (everything downloaded); --set adds a language's runner
// (cpp: @suture/runner-ctest, js: @suture/runner-jest); --settings first runs the README's
// install settings (the command under <!-- install-settings -->) in the empty project; extra
// packages (e.g. `typescript`) are installed from the registry along with the tarballs, to compare.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  diskKiB,
  installedCopies,
  installTarballs,
  npmWarnings,
  packAll,
  REPO,
  SETS,
  userEnv,
} from '../packages/cli/test/e2e/install/pack-install.mjs';

const args = process.argv.slice(2);
const cold = args.includes('--cold');
const settings = args.includes('--settings');
const setAt = args.indexOf('--set');
const setName = setAt >= 0 ? args[setAt + 1] : 'python';
const SET = SETS[setName];
if (!SET) throw new Error(`--set ${setName}: unknown set; use one of ${Object.keys(SETS).join(', ')}`);
const extra = args.filter((a, i) => a !== '--cold' && a !== '--settings' && i !== setAt && i !== setAt + 1);
const temp = await mkdtemp(join(tmpdir(), 'suture-bench-install-'));
const pad = (label) => label.padEnd(44);
const mb = (kib) => `${(kib / 1024).toFixed(1)} MB`;

try {
  await mkdir(join(temp, 'tarballs'));
  const packed = await packAll(join(temp, 'tarballs'));
  console.log('tarballs (npm pack)');
  for (const p of packed)
    console.log(
      `  ${pad(p.name)}${String(p.files.length).padStart(4)} files  ${(p.size / 1024).toFixed(0).padStart(4)} kB packed  ${(p.unpackedSize / 1024).toFixed(0).padStart(4)} kB unpacked`,
    );

  const app = join(temp, 'app');
  await mkdir(app);
  await writeFile(join(app, 'package.json'), '{ "name": "app", "private": true }\n');
  if (cold) await writeFile(join(app, '.npmrc'), `cache=${join(temp, 'npm-cache')}\n`);
  if (settings) {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const command = /<!-- install-settings -->\n\n```sh\n(.+)\n```/.exec(readme)?.[1];
    if (!command) throw new Error('README.md: no command under <!-- install-settings -->');
    execFileSync('sh', ['-c', command], { cwd: app, env: userEnv() });
  }
  const tarballs = SET.map((dir) => packed.find((p) => p.dir === dir).tarball);
  const r = await installTarballs(app, [...tarballs, ...extra]);
  if (r.code !== 0) throw new Error(`npm install failed (${r.code}):\n${r.stderr}`);

  const modules = join(app, 'node_modules');
  const entries = [];
  for (const name of await readdir(modules)) {
    if (name.startsWith('.')) continue;
    const names = name.startsWith('@')
      ? (await readdir(join(modules, name))).map((n) => `${name}/${n}`)
      : [name];
    for (const n of names) entries.push({ name: n, kib: diskKiB(join(modules, n)) });
  }
  entries.sort((a, b) => b.kib - a.kib);
  const compiled = existsSync(join(modules, 'tree-sitter/build/Release'));

  console.log(
    `\ninstall of ${SET.map((d) => `@suture/${d}`).join(', ')}${extra.length ? ` + ${extra.join(', ')}` : ''}`,
  );
  console.log(`${pad('npm cache')}${cold ? 'empty (everything downloaded)' : 'the user cache'}`);
  console.log(`${pad("README's install settings")}${settings ? 'applied first' : 'not applied'}`);
  console.log(`${pad('wall time')}${(r.ms / 1000).toFixed(1)} s`);
  console.log(`${pad('packages in node_modules')}${entries.length}`);
  console.log(`${pad('node_modules size (du)')}${mb(diskKiB(modules))}`);
  console.log(
    `${pad('tree-sitter native binding')}${compiled ? 'compiled from source (its prebuilt binary does not load here)' : 'prebuilt'}`,
  );
  const copies = await installedCopies(app, 'tree-sitter');
  console.log(`${pad('tree-sitter copies')}${copies.length} (${copies.join(', ')})`);
  const warned = npmWarnings(r.stderr);
  console.log(
    `${pad('npm warnings')}${warned.peer} peer-dependency, ${warned.scripts} install-scripts, ${warned.other} other`,
  );
  console.log(`${pad('typescript installed')}${existsSync(join(modules, 'typescript')) ? 'yes' : 'no'}`);
  console.log('largest entries');
  for (const e of entries.slice(0, 8)) console.log(`  ${pad(e.name)}${mb(e.kib)}`);
} finally {
  await rm(temp, { recursive: true, force: true });
}
