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
const code = await main(process.argv.slice(2));
process.exitCode = code;
// The command is done (every command awaits its own work, servers included): what still holds the
// event loop is a plugin's leftover (a fixer given up at its time limit with a socket still open,
// a timer it left), which must not keep a CI job waiting. The output is flushed first.
const flushed = (stream: NodeJS.WriteStream): Promise<void> =>
  new Promise((resolve) => {
    if (stream.writableEnded || stream.destroyed) resolve();
    else stream.write('', () => resolve());
  });
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
