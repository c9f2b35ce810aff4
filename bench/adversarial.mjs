#!/usr/bin/env node
// Weakening and faking proposals, and legitimate fixes, through the real gate (the built CLI)
// on small real projects with a failing test: pytest, Jest, CMake + CTest + GoogleTest and a
// runner of its own with no testModel (bench/adversarial/shtest-runner.mjs). Prints per runner
// what the gate kept (unflagged, flagged) and refused, each refusal's reason, and the legitimate
// fixes refused. Cases run one after another (a CMake tree is built once and copied).
//   node bench/adversarial.mjs [pytest|jest|gtest|shell]... [--only TEXT] [--json FILE]
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepare, REPO, runCase } from './adversarial/gate.mjs';
import { CASES } from './adversarial/cases.mjs';

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const only = flag('--only');
const jsonOut = flag('--json');
const runners = args.length ? args : Object.keys(CASES);
const work = join(REPO, '.tmp', 'adversarial');
await mkdir(work, { recursive: true });

const results = [];
const started = Date.now();
for (const runner of runners) {
  const cases = CASES[runner].filter((c) => !only || c.name.includes(only));
  if (cases.length === 0) continue;
  const prepared = await prepare(work, runner);
  for (const c of cases) {
    let v = await runCase(prepared, c);
    // a gate that did not start (a package being rebuilt beside the run) is tried again
    for (let retry = 0; v.outcome === 'broken' && retry < 3; retry++) {
      await new Promise((r) => setTimeout(r, 30_000));
      v = await runCase(prepared, c);
    }
    results.push({ runner, kind: c.kind, name: c.name, ...v });
    const mark = v.outcome === 'refused' ? `refused: ${v.reason}` : v.outcome;
    process.stderr.write(`${runner} ${c.kind} ${c.name}: ${mark} (${(v.ms / 1000).toFixed(1)} s)\n`);
  }
}

const count = (rs, outcome) => rs.filter((r) => r.outcome === outcome).length;
const hostile = results.filter((r) => r.kind === 'weakening' || r.kind === 'faking');
const legit = results.filter((r) => r.kind === 'legitimate');
for (const runner of runners) {
  const rs = results.filter((r) => r.runner === runner);
  if (rs.length === 0) continue;
  const bad = rs.filter((r) => r.kind === 'weakening' || r.kind === 'faking');
  const ok = rs.filter((r) => r.kind === 'legitimate');
  console.log(`\n## ${runner}`);
  console.log(
    `weakening and faking: ${bad.length} tried, kept unflagged ${count(bad, 'unflagged')}, kept flagged ${count(bad, 'flagged')}, refused ${count(bad, 'refused')}${count(bad, 'broken') ? `, broken cases ${count(bad, 'broken')}` : ''}`,
  );
  console.log(
    `legitimate: ${ok.length} tried, kept unflagged ${count(ok, 'unflagged')}, kept flagged ${count(ok, 'flagged')}, refused ${count(ok, 'refused')}`,
  );
  for (const r of bad.filter((x) => x.outcome === 'unflagged'))
    console.log(`  KEPT UNFLAGGED  ${r.kind}: ${r.name}`);
  for (const r of bad.filter((x) => x.outcome === 'flagged'))
    console.log(`  kept flagged    ${r.kind}: ${r.name}`);
  for (const r of bad.filter((x) => x.outcome === 'refused'))
    console.log(`  refused         ${r.kind}: ${r.name}: ${r.reason}`);
  for (const r of ok.filter((x) => x.outcome === 'refused'))
    console.log(`  LEGITIMATE REFUSED  ${r.name}: ${r.reason}`);
  for (const r of rs.filter((x) => x.outcome === 'broken'))
    console.log(`  BROKEN CASE     ${r.kind}: ${r.name}: ${r.reason}`);
}
const legitRefused = legit.filter((r) => r.outcome === 'refused');
const broken = results.filter((r) => r.outcome === 'broken');
console.log(`\n## totals`);
console.log(
  `weakening and faking proposals: ${hostile.length} (weakening ${hostile.filter((r) => r.kind === 'weakening').length}, faking ${hostile.filter((r) => r.kind === 'faking').length}); kept unflagged ${count(hostile, 'unflagged')} (goal 0), kept flagged ${count(hostile, 'flagged')}, refused ${count(hostile, 'refused')}`,
);
console.log(`legitimate fixes: ${legit.length}; refused ${legitRefused.length} (goal 0)`);
const unread = results.filter((r) => r.kind === 'unreadable');
if (unread.length)
  console.log(
    `test-only edits to tests no reader understands: ${unread.length}; refused ${count(unread, 'refused')} (undecidable without a reader: refused by design, with the reason)`,
  );
for (const r of unread.filter((x) => x.outcome !== 'refused'))
  console.log(`  UNREAD TEST EDIT KEPT  ${r.runner}: ${r.name}`);
for (const r of legitRefused) console.log(`  LEGITIMATE REFUSED  ${r.runner}: ${r.name}: ${r.reason}`);
const kept = results.filter((r) => r.outcome === 'flagged' || r.outcome === 'unflagged');
const differential = (rs) => rs.reduce((n, r) => n + (r.differentialRuns ?? 0), 0);
console.log(
  `differential check: ${differential(results)} run(s) in ${results.length} gates; ${differential(kept)} for the ${kept.length} kept heals (at most 1 per heal, only for a proposal that edits tests and code)`,
);
if (broken.length) console.log(`cases whose gate did not run (not counted above): ${broken.length}`);
console.log(`wall time: ${((Date.now() - started) / 1000).toFixed(0)} s`);
if (jsonOut) await writeFile(jsonOut, JSON.stringify(results, null, 2));
