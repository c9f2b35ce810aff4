#!/usr/bin/env node
import module from 'node:module';

// Node 22.1+ keeps the compiled code of the modules it loads on disk, so the next `suture` starts
// without parsing them again (Node 20 has no such cache; this is a no-op there). It must be on
// before main.js and its imports load.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { main } = await import('./main.js');
const { forwardHangup } = await import('./signals.js');
const { guardStreams } = await import('./stream-guard.js');

guardStreams([process.stdout, process.stderr]);
forwardHangup();
process.exitCode = await main(process.argv.slice(2));
