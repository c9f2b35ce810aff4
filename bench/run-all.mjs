#!/usr/bin/env node
// Runs the benchmark scripts of this folder one after another, each in its own Node process with
// its output streamed, and prints a summary. A script that fails is reported and the rest still run.
//   node bench/run-all.mjs              every script
//   node bench/run-all.mjs ctest jest   the scripts whose name contains one of the words
//   node bench/run-all.mjs --list       the script names
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const self = basename(fileURLToPath(import.meta.url));
const all = (await readdir(here)).filter((f) => f.endsWith('.mjs') && f !== self).sort();
const names = (f) => f.replace(/\.mjs$/, '');

const args = process.argv.slice(2);
if (args.includes('--list')) {
  console.log(all.map(names).join('\n'));
  process.exit(0);
}
const unknown = args.filter((a) => a.startsWith('-') || !all.some((f) => names(f).includes(a)));
if (unknown.length > 0) {
  console.error(
    `run-all: no benchmark matches ${unknown.map((a) => `"${a}"`).join(', ')}; the scripts are: ${all.map(names).join(', ')}`,
  );
  process.exit(2);
}
const picked = args.length === 0 ? all : all.filter((f) => args.some((a) => names(f).includes(a)));

/** Runs one script to its end; a signal or a failed spawn counts as a failure, not a crash of this runner. */
function run(file) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(here, file)], { stdio: 'inherit' });
    child.on('error', (error) => resolve(`could not start: ${error.message}`));
    child.on('exit', (code, signal) =>
      resolve(code === 0 ? undefined : signal ? `killed by ${signal}` : `exit code ${code}`),
    );
  });
}

// Ctrl-C reaches the running script through the terminal; stop after it instead of starting the next.
let interrupted = false;
process.on('SIGINT', () => {
  interrupted = true;
});

const results = [];
for (const file of picked) {
  if (interrupted) break;
  console.log(`\n=== ${names(file)} ===`);
  const started = performance.now();
  const failure = await run(file);
  const seconds = (performance.now() - started) / 1000;
  results.push({ name: names(file), failure, seconds });
  if (failure) console.error(`${names(file)} FAILED (${failure})`);
}

console.log('\n=== summary ===');
for (const r of results)
  console.log(
    `${r.failure ? 'FAIL' : 'ok  '}  ${r.name.padEnd(20)} ${r.seconds.toFixed(1).padStart(6)} s${r.failure ? `  ${r.failure}` : ''}`,
  );
const skipped = picked.length - results.length;
if (skipped > 0) console.log(`interrupted: ${skipped} not run`);
const failed = results.filter((r) => r.failure).length;
console.log(`${results.length - failed}/${picked.length} benchmarks ran to the end`);
process.exit(failed > 0 || skipped > 0 ? 1 : 0);
