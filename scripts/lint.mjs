#!/usr/bin/env node
// `npm run lint`: ESLint and Prettier's check over the repository, side by side (each keeps one
// core busy for about as long as the other), each one's output printed whole when it ends, and a
// failing exit code when either fails.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const checks = [
  ['eslint', ['.']],
  ['prettier', ['--check', '.']],
];

const results = await Promise.all(
  checks.map(
    ([bin, args]) =>
      new Promise((resolve) => {
        const child = spawn(`${root}node_modules/.bin/${bin}`, args, {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        child.on('error', (error) => resolve({ bin, code: 1, output: `${output}${error.message}\n` }));
        child.on('close', (code, signal) => resolve({ bin, code: code ?? (signal ? 1 : 0), output }));
      }),
  ),
);
for (const { bin, args, code, output } of results.map((r, i) => ({ ...r, args: checks[i][1] }))) {
  process.stdout.write(`> ${bin} ${args.join(' ')}\n${output}`);
  if (code !== 0) process.stdout.write(`${bin} failed (exit ${code})\n`);
}
process.exitCode = results.some((r) => r.code !== 0) ? 1 : 0;
