#!/usr/bin/env node
// Hostile proposals: seeded fixer answers (absolute paths, "..", symlinks out of the root, denied
// and out-of-scope paths, case tricks, NUL bytes, huge edits, ambiguous search text, edits to the
// journal and .git, test weakening, malformed answers) through the real gate; counts writes
// outside the scope (inside and outside the repository) and refusals without a reason. With a
// workspace mode the patches are validated in a private view: it also counts repository files
// written before the heals land (must be 0).
//   node bench/proposal-fuzz.mjs [proposals=10000] [seed] [workspace=in-place|overlay|copy]
import { runProposalFuzz } from '../packages/core/test/harness/proposal-fuzz.mjs';

const proposals = Number(process.argv[2] ?? 10_000);
const seed = Number(process.argv[3] ?? Date.now() % 1_000_000);
const workspace = process.argv[4] ?? 'in-place';
const started = Date.now();
console.log(`proposal fuzz: ${proposals} proposals, seed ${seed}, workspace ${workspace}`);
const s = await runProposalFuzz({ proposals, seed, workspace });
const pad = (label) => label.padEnd(52);
console.log(`\n${pad('proposals tried')}${s.proposals}`);
console.log(`${pad('gates run (check and fix mode)')}${s.gates}`);
console.log(`${pad('patches applied and re-run')}${s.applied}`);
console.log(`${pad('... of which healed')}${s.healed}`);
console.log(`${pad('writes outside the scope (must be 0)')}${s.writesOutsideScope}`);
console.log(`${pad('refusals without a reason (must be 0)')}${s.refusalsWithoutReason}`);
console.log(`${pad('check-mode trees not restored (must be 0)')}${s.treeNotRestored}`);
if (workspace !== 'in-place')
  console.log(`${pad('repository files written during validation (must be 0)')}${s.writtenBeforeEnd}`);
console.log(`${pad('internal errors (must be 0)')}${s.internalErrors}`);
console.log('\nattempt verdicts:');
for (const [v, n] of Object.entries(s.verdicts).sort((a, b) => b[1] - a[1]))
  console.log(`  ${pad(v).slice(0, 50)}${n}`);
console.log('\nmost common refusal reasons:');
for (const [r, n] of [...s.reasons].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`  ${String(n).padStart(6)}  ${r}`);
for (const v of s.violations)
  console.log(
    `\nVIOLATION (seed ${v.seed}, gate ${v.gate}): ${v.what}\n${JSON.stringify(v.detail, null, 2).slice(0, 2000)}`,
  );
console.log(
  `\n${((Date.now() - started) / 1000).toFixed(0)} s${s.keptAt ? `; the world of the failing run is kept in ${s.keptAt}` : ''}`,
);
process.exitCode = s.violations.length > 0 ? 1 : 0;
