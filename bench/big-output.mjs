#!/usr/bin/env node
// Memory of suture while a test prints a huge output: peak RSS of the suture process (getrusage,
// children not counted) for a script-runner test and a pytest test, and whether the report still
// has the output's last line. Also: a test whose helpers ignore SIGTERM and outlive their parent
// is killed with its whole group at the timeout, and nothing of the run is left.
//   node bench/big-output.mjs [megabytes=1024]
import { runBigOutputScenario, runRunawayScenario } from '../packages/cli/test/harness/processes.mjs';

const mb = Number(process.argv[2] ?? 1024);
const pad = (label) => label.padEnd(62);
let bad = 0;
for (const runner of ['script', 'pytest']) {
  const r = await runBigOutputScenario({ bytes: mb * 1024 * 1024, runner });
  console.log(`${pad(`${runner}: test output`)}${mb} MB`);
  console.log(`${pad(`${runner}: peak RSS of suture (target < 200 MB)`)}${r.peakRssMb.toFixed(1)} MB`);
  console.log(`${pad(`${runner}: last line of the output in the report`)}${r.tailKept ? 'yes' : 'NO'}`);
  console.log(`${pad(`${runner}: wall time`)}${(r.tookMs / 1000).toFixed(1)} s`);
  if (!r.tailKept || !(r.peakRssMb < 200)) bad++;
}
const p = await runRunawayScenario({ timeoutMs: 3000 });
console.log(`${pad('runaway test: processes started (test + helpers)')}${p.pids.length}`);
console.log(`${pad('runaway test: still alive after suture exited (must be 0)')}${p.alive.length}`);
console.log(`${pad('processes left in the repository (must be 0)')}${p.leftover.length}`);
console.log(`${pad('runaway test: status')}${p.testStatus}`);
if (p.alive.length > 0 || p.leftover.length > 0) bad++;
process.exitCode = bad > 0 ? 1 : 0;
