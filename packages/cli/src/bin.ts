#!/usr/bin/env node
import { main } from './main.js';
import { forwardHangup } from './signals.js';
import { guardStreams } from './stream-guard.js';

guardStreams([process.stdout, process.stderr]);
forwardHangup();
process.exitCode = await main(process.argv.slice(2));
