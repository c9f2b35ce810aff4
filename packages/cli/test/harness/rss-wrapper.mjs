// node rss-wrapper.mjs <bin.js> args...: runs the CLI in this process and, on exit, writes the
// peak resident set size of this process (kB, getrusage's ru_maxrss) to $SUTURE_RSS_FILE. Child
// processes (the tests) are not counted: they are not suture.
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [bin, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], bin, ...args];
process.on('exit', () => {
  if (process.env.SUTURE_RSS_FILE)
    writeFileSync(process.env.SUTURE_RSS_FILE, String(process.resourceUsage().maxRSS));
});
await import(pathToFileURL(bin).href);
