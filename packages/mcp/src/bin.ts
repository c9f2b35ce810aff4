#!/usr/bin/env node
import { serveStdio } from './stdio.js';

/** `suture-mcp [--config FILE]`: the MCP server on stdio, for clients that start it without the CLI. */
const args = process.argv.slice(2);
const at = args.indexOf('--config');
const configFile = at >= 0 ? args[at + 1] : undefined;
const level = process.env.SUTURE_LOG ?? 'warn';
const levels = ['debug', 'info', 'warn', 'error'];
const log =
  (l: string) =>
  (message: string): void => {
    if (levels.indexOf(l) >= levels.indexOf(level)) process.stderr.write(`suture ${l}: ${message}\n`);
  };
await serveStdio({
  ...(configFile ? { configFile } : {}),
  logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
});
process.exit(0);
