#!/usr/bin/env node
// Crash safety of `suture run --fix`: SIGKILL at random moments and at aimed points of the write
// path (journal, atomic writes, re-runs, regression run, restore; sometimes `suture recover` is
// killed too), then `suture recover`; counts how often the tree came back byte-identical to the
// start or to the healed state. Prints figures; the vitest suite runs a reduced series. With a
// workspace mode (overlay, copy), the heals are validated in a private view and land at the end:
// a run killed before that must leave the tree untouched even before recover.
//   node bench/crash-trials.mjs [trials=240] [seed] [workspace=in-place|overlay|copy|auto]
import { runCrashTrials } from '../packages/cli/test/harness/crash-trials.mjs';

const trials = Number(process.argv[2] ?? 240);
const seed = Number(process.argv[3] ?? Date.now() % 1_000_000);
const workspace = process.argv[4] ?? 'in-place';
const started = Date.now();
console.log(`crash trials: ${trials} trials, seed ${seed}, workspace ${workspace}`);
const s = await runCrashTrials({
  trials,
  seed,
  workspace,
  onTrial: (r) => {
    if (r.problems.length > 0)
      console.log(
        `  trial ${r.index} FAILED (${r.phase}, plan ${JSON.stringify(r.plan)}):\n    ${r.problems.join('\n    ')}`,
      );
    else if ((r.index + 1) % 20 === 0) console.log(`  ${r.index + 1} trials done`);
  },
});
const pad = (label) => label.padEnd(60);
console.log(`\n${pad('trials run')}${s.trials}`);
console.log(`${pad('killed by SIGKILL')}${s.killed}`);
console.log(`${pad('... and `suture recover` killed mid-restore')}${s.recoverKilled}`);
console.log(`${pad('recovered byte-identical to the start')}${s.identicalToStart}`);
console.log(`${pad('byte-identical to the healed state')}${s.identicalToHealed}`);
console.log(`${pad('anything in between (must be 0)')}${s.inBetween}`);
console.log(`${pad('conflicts reported by recover (must be 0)')}${s.conflicts}`);
console.log(`${pad('failed trials (must be 0)')}${s.failedTrials.length}`);
console.log(`${pad('killed runs that left a test running (recover stopped it)')}${s.orphans}`);
if (workspace !== 'in-place')
  console.log(`${pad('user files written before the heals landed (must be 0)')}${s.writtenBeforeEnd}`);
console.log('\nkills per phase:');
for (const [phase, n] of Object.entries(s.hits)) console.log(`  ${pad(phase).slice(0, 44)}${n}`);
console.log('\nkills by the last point logged:');
for (const [point, n] of Object.entries(s.points).sort((a, b) => b[1] - a[1]))
  console.log(`  ${pad(point).slice(0, 44)}${n}`);
console.log(
  `\nclean run ${(s.cleanRunMs / 1000).toFixed(1)} s; series ${((Date.now() - started) / 1000).toFixed(0)} s${s.keptAt ? `; failed trials kept in ${s.keptAt}` : ''}`,
);
process.exitCode = s.failedTrials.length > 0 ? 1 : 0;
