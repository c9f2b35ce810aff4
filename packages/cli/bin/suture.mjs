#!/usr/bin/env node
// The `suture` command as npm links it. The command itself is compiled into dist/; this file is
// committed so that npm links the command in a fresh clone too, where `npm install` runs before
// the build.
import { existsSync } from 'node:fs';

const built = new URL('../dist/bin.js', import.meta.url);
if (!existsSync(built)) {
  process.stderr.write('suture: @suture/cli is not built yet; run `npm run build` at the repository root\n');
  process.exit(3);
}
await import(built.href);
