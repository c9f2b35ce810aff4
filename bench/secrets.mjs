#!/usr/bin/env node
// Secrets: 26 kinds of credentials planted in the environment of `suture run --fix` and `suture
// run` (a script-runner project and a real pytest project), in test output, an assertion message
// and source in the scope; every byte suture wrote (stdout, stderr, .suture/, GITHUB_STEP_SUMMARY)
// and every prompt rendered for a fixer is searched for them.
//   node bench/secrets.mjs
import { runSecretsScenario } from '../packages/cli/test/harness/secrets.mjs';

const r = await runSecretsScenario();
const pad = (label) => label.padEnd(52);
console.log(`${pad('secret kinds planted')}${r.kinds.length}`);
console.log(`${pad('values searched for (with their tails)')}${r.planted}`);
console.log(`${pad('outputs searched (files, streams, prompts)')}${r.sources}`);
console.log(`${pad('bytes searched')}${r.bytes}`);
console.log(`${pad('prompts rendered for the fixer')}${r.prompts}`);
console.log(`${pad('secrets leaked (must be 0)')}${r.leaks.length}`);
for (const l of r.leaks) console.log(`  LEAK ${l.kind} in ${l.where}`);
if (r.keptAt) console.log(`the scenario is kept in ${r.keptAt}`);
console.log(`kinds: ${r.kinds.join(', ')}`);
process.exitCode = r.leaks.length > 0 ? 1 : 0;
