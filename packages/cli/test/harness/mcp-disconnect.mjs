// A client that dies mid-call: it starts `suture mcp`, calls suture_heal, and exits abruptly when
// the progress says the heal has patched its copy, leaving the server with a closed stdin.
// Usage: node mcp-disconnect.mjs <suture bin> <repo dir> <heal arguments as JSON> <progress prefix>
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [bin, dir, args, prefix] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [bin, 'mcp'],
  cwd: dir,
  env: { ...process.env, SUTURE_LOG: 'info' },
  stderr: 'inherit',
});
const client = new Client({ name: 'dies-mid-call', version: '1.0.0' });
await client.connect(transport);
process.stdout.write(`${JSON.stringify({ server: transport.pid })}\n`);
await client
  .callTool({ name: 'suture_heal', arguments: JSON.parse(args) }, undefined, {
    timeout: 600_000,
    resetTimeoutOnProgress: true,
    onprogress: (p) => {
      if (!String(p.message).startsWith(prefix)) return;
      process.stdout.write(`${JSON.stringify({ progress: p.message })}\n`);
      process.exit(0);
    },
  })
  .then((result) => {
    process.stdout.write(`${JSON.stringify({ finished: result })}\n`);
    process.exit(1);
  });
