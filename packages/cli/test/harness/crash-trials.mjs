// Crash trials: a real `suture run --fix` on a fixture repository, SIGKILLed at random moments and
// at aimed points of its write path, then `suture recover`. The tree must come back byte for byte
// to how it started, or be the fully validated healed state (only once the journal is committed),
// never anything in between. Used by the vitest suite (a few dozen trials) and by
// bench/crash-trials.mjs (hundreds).
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile, stat } from 'node:fs/promises';
import { watch } from 'node:fs';
import { join } from 'node:path';
import { removeDir, runSuture, spawnSuture, tempRepoDir } from './cli.mjs';
import { processesIn } from './processes.mjs';
import { diffSnapshots, prng, sameSnapshot, skipSuture, snapshot } from '../../../core/test/harness/tree.mjs';

/** The phases a kill is counted in, in the order a run goes through them. */
export const PHASES = [
  'before the journal',
  'initial run',
  'mid-journal',
  'mid-write',
  'between a write and its re-run',
  'during the re-run',
  'during the regression run',
  'during restore',
  'closing the journal',
  'after the commit',
];
/** The phases every trial series must hit at least once. */
export const REQUIRED_PHASES = [
  'before the journal',
  'mid-journal',
  'mid-write',
  'during the re-run',
  'during the regression run',
  'during restore',
];

/**
 * The phases a series in a private workspace must hit: the tree is written only when the heals
 * land at the end (through the journal), and no restore happens at all in a run that is not cut.
 */
export const WORKSPACE_REQUIRED_PHASES = [
  'before the journal',
  'during the re-run',
  'during the regression run',
  'mid-journal',
  'mid-write',
];

/** Aimed kills go through the required phases first, so that a short series still hits each twice. */
function aimsFor(workspace, sequence) {
  const required = workspace === 'in-place' ? REQUIRED_PHASES : WORKSPACE_REQUIRED_PHASES;
  const reached = new Set(sequence.map((_, i) => classify(sequence.slice(0, i + 1))));
  return [...required, ...PHASES.filter((p) => !required.includes(p) && reached.has(p))];
}

/**
 * The phase a process was in when it died, from the points it logged (SUTURE_PHASE_LOG). Atomic
 * write steps belong to the step that started them; anything inside an undo is a restore.
 */
export function classify(lines) {
  let depth = 0;
  let major;
  for (const line of lines) {
    if (line === 'restore:putback' || line === 'restore:begin') depth++;
    else if (line === 'restore:done') depth = Math.max(0, depth - 1);
    if (!line.startsWith('atomic:') && line !== 'restore:file') major = line;
  }
  const last = lines[lines.length - 1];
  if (last === undefined) return 'before the journal';
  if (depth > 0 || last === 'restore:done') return 'during restore';
  switch (major) {
    case 'journal:created':
    case 'run:initial:start':
    case 'run:initial:end':
      return 'initial run';
    case 'land:begin':
    case 'journal:backup':
    case 'journal:manifest':
      return 'mid-journal';
    case 'write:begin':
      return 'mid-write';
    case 'write:end':
      return 'between a write and its re-run';
    case 'run:retry:start':
    case 'run:retry:end':
      return 'during the re-run';
    case 'run:regression:start':
    case 'run:regression:end':
      return 'during the regression run';
    case 'journal:closing':
      return 'closing the journal';
    case 'journal:closed':
    case 'gate:end':
      return 'after the commit';
    default:
      return 'before the journal';
  }
}

const CRLF_MATH =
  'export function add(a, b) {\r\n  return a - b;\r\n}\r\n\r\nexport function mul(a, b) {\r\n  return a * b;\r\n}';

const FIXER = `// Scripted fixer of the crash fixture: a wrong guess then the right fix for add (an attempt
// rolled back), and a greeting fix with a new module that breaks shout (reverted by the
// regression run).
export default function crashFixer() {
  return {
    name: 'crash-fixer',
    apiVersion: 1,
    async propose(request) {
      const test = request.failure.tests[0];
      if (test === 'tests/add.test.mjs') {
        const replace = request.attempt === 1 ? 'return a * b;' : 'return a + b;';
        return { verdict: 'edits', rationale: 'add must add', edits: [{ file: 'src/math.mjs', search: 'return a - b;', replace }] };
      }
      if (test === 'tests/greet.test.mjs') {
        return {
          verdict: 'edits',
          rationale: 'a capital and a comma',
          edits: [
            { file: 'src/lib/deep/punct.mjs', content: "export const COMMA = ',';\\n" },
            { file: 'src/greet.mjs', search: "return 'hello ' + name;", replace: "return 'Hello' + COMMA + ' ' + name;" },
            { file: 'src/greet.mjs', search: 'export function greet', replace: "import { COMMA } from './lib/deep/punct.mjs';\\n\\nexport function greet" },
          ],
        };
      }
      return { verdict: 'unfixable', diagnosis: 'not scripted' };
    },
  };
}
`;

/**
 * Writes the fixture repository: a git repository with a script-runner project whose sources
 * include a CRLF file without a trailing newline and with the executable bit (the file the heal
 * edits), a binary file, an executable script and untracked files outside and inside the project.
 */
export async function writeCrashFixture(root, { workspace = 'in-place' } = {}) {
  const put = async (rel, content, mode) => {
    await mkdir(join(root, rel, '..'), { recursive: true });
    await writeFile(join(root, rel), content);
    if (mode) await chmod(join(root, rel), mode);
  };
  await put(
    'suture.config.json',
    `${JSON.stringify(
      {
        projects: [{ name: 'calc', root: 'calc', runner: './suture-plugins/runner.mjs', timeoutMs: 120_000 }],
        fixers: ['./suture-plugins/fixer.mjs'],
        heal: { flakyReruns: 0, allowNewFiles: true, maxAttempts: 3 },
        reporters: ['json', 'junit', 'markdown', 'patch'],
        workspace,
      },
      null,
      2,
    )}\n`,
  );
  await put('suture-plugins/runner.mjs', "export { scriptRunner as default } from '@suture/core/testing';\n");
  await put('suture-plugins/fixer.mjs', FIXER);
  await put('calc/src/math.mjs', CRLF_MATH, 0o755);
  await put(
    'calc/src/greet.mjs',
    "export function greet(name) {\n  return 'hello ' + name;\n}\n\nexport function shout(name) {\n  return greet(name).toUpperCase() + '!';\n}\n",
  );
  await put(
    'calc/tests/add.test.mjs',
    "import assert from 'node:assert/strict';\nimport { add } from '../src/math.mjs';\n\nassert.equal(add(2, 3), 5);\n",
  );
  await put(
    'calc/tests/mul.test.mjs',
    "import assert from 'node:assert/strict';\nimport { mul } from '../src/math.mjs';\n\nassert.equal(mul(2, 3), 6);\n",
  );
  await put(
    'calc/tests/greet.test.mjs',
    "import assert from 'node:assert/strict';\nimport { greet } from '../src/greet.mjs';\n\nassert.equal(greet('bob'), 'Hello, bob');\n",
  );
  await put(
    'calc/tests/shout.test.mjs',
    "import assert from 'node:assert/strict';\nimport { shout } from '../src/greet.mjs';\n\nassert.equal(shout('bob'), 'HELLO BOB!');\n",
  );
  await put('calc/data/table.bin', Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37) % 256)));
  await put('tools/run.sh', '#!/bin/sh\r\necho run\r\n', 0o755);
  await put('README.md', '# crash fixture\n\nNo trailing newline here');
  const git = (...args) =>
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'core.autocrlf=false', ...args],
      { cwd: root, stdio: 'ignore' },
    );
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'fixture');
  // Untracked: never added to git, still the user's and still preserved.
  await put('scratch/notes.txt', 'untracked notes, no newline');
  await put('calc/src/untracked-draft.mjs', 'export const draft = 1;\r\n');
  await put('calc/data/untracked.bin', Buffer.from([0xff, 0xfe, 0, 0, 0x0d, 0x0a]));
}

/** Reads a phase log as lines (empty when the process never opened it). */
async function phaseLines(file) {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter(Boolean);
}

/**
 * Spawns `suture args` and SIGKILLs it per `plan`: `{ afterMs }` from the start, or
 * `{ point, occurrence, delayMs }` after the process logs that point for that time.
 * Resolves with whether the kill landed and the logged points.
 */
async function runAndKill(args, cwd, log, plan, hold) {
  const child = spawnSuture(args, cwd, {
    env: { SUTURE_PHASE_LOG: log, ...(hold ? { SUTURE_PHASE_HOLD: hold } : {}) },
  });
  child.stdout.resume();
  child.stderr.resume();
  let exited = false;
  let killed = false;
  const done = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  done.then(() => (exited = true));
  const kill = () => {
    if (exited) return;
    killed = true;
    child.kill('SIGKILL');
  };
  let watcher;
  if (plan.afterMs !== undefined) setTimeout(kill, plan.afterMs);
  else {
    await writeFile(log, '', { flag: 'a' });
    let armed = false;
    const check = async () => {
      if (armed || exited) return;
      const seen = (await phaseLines(log)).filter((l) => l === plan.point).length;
      if (seen >= plan.occurrence && !armed) {
        armed = true;
        setTimeout(kill, plan.delayMs);
      }
    };
    watcher = watch(log, () => void check());
    const poll = setInterval(() => void check(), 20);
    done.then(() => clearInterval(poll));
  }
  const { code, signal } = await done;
  watcher?.close();
  return { killed: killed && signal === 'SIGKILL', code, lines: await phaseLines(log) };
}

/**
 * Points whose window is instantaneous: held for `HOLD_MS` at the chosen occurrence. The process
 * is frozen while it holds, so the kill lands at the same point whenever it comes in the window;
 * the window is wide because a loaded two-core machine can take hundreds of milliseconds to let
 * the harness see the point and send the signal (150 ms missed every aimed mid-write kill there).
 */
const HOLD_MS = 1000;
const KILL_WITHIN_MS = 100;
const LONG_POINTS = new Set(['run:initial:start', 'run:retry:start', 'run:regression:start']);

/**
 * Prepares a series: the fixture, a clean run to learn the healed state and the sequence of
 * points the run goes through, and the time it takes.
 */
export async function prepareCrashTrials(workspace = 'in-place') {
  const base = await tempRepoDir('crash-');
  const template = join(base, 'template');
  await writeCrashFixture(template, { workspace });
  const start = await snapshot(template, skipSuture);
  const clean = join(base, 'clean');
  execFileSync('cp', ['-a', template, clean]);
  const log = join(base, 'clean.phases');
  const t0 = Date.now();
  const run = await runSuture(['run', '--fix'], clean, { env: { SUTURE_PHASE_LOG: log } });
  const fullMs = Date.now() - t0;
  if (run.code !== 1)
    throw new Error(
      `the clean run should heal add and revert greet (exit 1), got ${run.code}:\n${run.stderr}`,
    );
  const leftover = await processesIn(clean);
  if (leftover.length > 0) throw new Error(`processes of the clean run outlived it: ${leftover.join(', ')}`);
  const healed = await snapshot(clean, skipSuture);
  const healedDiff = diffSnapshots(start, healed);
  if (healedDiff.length !== 1 || !healedDiff[0].startsWith('modified calc/src/math.mjs')) {
    throw new Error(`unexpected healed state:\n${healedDiff.join('\n')}`);
  }
  const sequence = await phaseLines(log);
  await removeDir(clean);
  return { base, template, start, healed, sequence, fullMs, workspace };
}

/** A kill plan: aimed at a point of the clean run's sequence that belongs to `phase`, or uniform. */
export function planFor(target, ctx, rng) {
  if (target === 'uniform') return { afterMs: rng.int(Math.round(ctx.fullMs * 1.1)) };
  const candidates = ctx.sequence
    .map((line, i) => ({ line, i }))
    .filter(({ i }) => classify(ctx.sequence.slice(0, i + 1)) === target);
  if (candidates.length === 0) throw new Error(`the clean run never reaches "${target}"`);
  const { line, i } = rng.pick(candidates);
  const occurrence = ctx.sequence.slice(0, i + 1).filter((l) => l === line).length;
  if (LONG_POINTS.has(line)) return { point: line, occurrence, delayMs: rng.int(60) };
  return {
    point: line,
    occurrence,
    delayMs: rng.int(KILL_WITHIN_MS),
    hold: `${line}#${occurrence}=${HOLD_MS}`,
  };
}

/**
 * One trial: copy the fixture, run and kill per plan, sometimes kill `suture recover` in the
 * middle of its restore too, recover, and compare the tree with the start and healed snapshots.
 */
export async function runTrial(ctx, index, target, rng, plan = planFor(target, ctx, rng)) {
  const dir = join(ctx.base, `t${index}`);
  execFileSync('cp', ['-a', ctx.template, dir]);
  const killed = await runAndKill(['run', '--fix'], dir, join(ctx.base, `t${index}.phases`), plan, plan.hold);
  const phase = killed.killed ? classify(killed.lines) : 'not killed (the run ended first)';
  const lastPoint = killed.killed
    ? (killed.lines[killed.lines.length - 1] ?? '(none: still starting)')
    : undefined;
  const committed = killed.lines.includes('journal:closed');
  const result = {
    index,
    target,
    plan,
    phase,
    lastPoint,
    killed: killed.killed,
    recoverKilled: false,
    conflicts: 0,
    problems: [],
  };
  // A SIGKILLed suture cannot stop the test it was running (its own process group): recover does.
  result.orphans = (await processesIn(dir)).length;
  // In a private workspace the user's tree is written only once the heals land: a run killed
  // before that must have left it as it was, before any recover.
  result.writtenBeforeEnd = 0;
  if (ctx.workspace !== 'in-place' && !killed.lines.includes('land:begin')) {
    const now = await snapshot(dir, skipSuture);
    if (!sameSnapshot(now, ctx.start)) {
      result.writtenBeforeEnd = diffSnapshots(ctx.start, now).length;
      result.problems.push(
        `the tree was written before the heals landed:\n${diffSnapshots(ctx.start, now).join('\n')}`,
      );
    }
  }

  const hasManifest = await stat(join(dir, '.suture/journal/manifest.json')).then(
    () => true,
    () => false,
  );
  if (hasManifest && rng.chance(0.25)) {
    // Kill `suture recover` itself while it restores: a second recover must still finish the job.
    const point = rng.pick(['restore:file', 'atomic:renaming', 'restore:begin']);
    const rplan = { point, occurrence: 1 + rng.int(2), delayMs: rng.int(KILL_WITHIN_MS) };
    const r = await runAndKill(
      ['recover'],
      dir,
      join(ctx.base, `t${index}.recover.phases`),
      rplan,
      `${point}#${rplan.occurrence}=${HOLD_MS}`,
    );
    result.recoverKilled = r.killed;
  }
  const recovered = await runSuture(['recover'], dir);
  if (recovered.code !== 0)
    result.problems.push(`suture recover exited ${recovered.code}: ${recovered.stderr.trim()}`);
  const left = await processesIn(dir);
  if (left.length > 0)
    result.problems.push(`processes of the killed run still running after recover: ${left.join(', ')}`);
  const conflicts = /(\d+) conflict\(s\)/.exec(recovered.stdout);
  result.conflicts = conflicts ? Number(conflicts[1]) : 0;
  if (result.conflicts > 0) result.problems.push(`recover reported conflicts:\n${recovered.stdout}`);
  if (
    await stat(join(dir, '.suture/journal/manifest.json')).then(
      () => true,
      () => false,
    )
  )
    result.problems.push('the journal is still there after recover');

  const after = await snapshot(dir, skipSuture);
  result.outcome = sameSnapshot(after, ctx.start)
    ? 'start'
    : sameSnapshot(after, ctx.healed)
      ? 'healed'
      : 'in between';
  if (result.outcome === 'in between')
    result.problems.push(
      `the tree is neither the start nor the healed state:\n${diffSnapshots(ctx.start, after).join('\n')}`,
    );
  // A heal may only survive once the journal is committed; before that, recover must undo it all.
  if (result.outcome === 'healed' && !committed)
    result.problems.push('the healed state survived although the run died before committing its journal');
  if (result.outcome === 'start' && committed) result.problems.push('the committed heal was lost');

  if (index % 10 === 0 && result.problems.length === 0) {
    // The killed run's lock is stale: the next run must take it over, not refuse.
    const next = await runSuture(['run', '--no-heal'], dir);
    if (next.code !== 1)
      result.problems.push(
        `the next run after recover exited ${next.code} (expected 1, failures remain): ${next.stderr.trim()}`,
      );
  }
  if (result.problems.length === 0) await removeDir(dir);
  return result;
}

/**
 * Runs `trials` trials: aimed ones cycle through the phases (the required ones first) and every fourth is a
 * uniformly random kill time. Returns per-trial results and the counts.
 */
export async function runCrashTrials({ trials, seed, workspace = 'in-place', onTrial = () => undefined }) {
  const rng = prng(seed);
  const ctx = await prepareCrashTrials(workspace);
  const aims = aimsFor(workspace, ctx.sequence);
  const results = [];
  for (let i = 0; i < trials; i++) {
    const target = i % 4 === 3 ? 'uniform' : aims[(i - Math.floor(i / 4)) % aims.length];
    const r = await runTrial(ctx, i, target, rng);
    results.push(r);
    onTrial(r);
  }
  const hits = Object.fromEntries([...PHASES, 'not killed (the run ended first)'].map((p) => [p, 0]));
  const points = {};
  for (const r of results) {
    hits[r.phase] = (hits[r.phase] ?? 0) + 1;
    if (r.lastPoint) points[r.lastPoint] = (points[r.lastPoint] ?? 0) + 1;
  }
  const summary = {
    seed,
    trials: results.length,
    killed: results.filter((r) => r.killed).length,
    recoverKilled: results.filter((r) => r.recoverKilled).length,
    identicalToStart: results.filter((r) => r.outcome === 'start').length,
    identicalToHealed: results.filter((r) => r.outcome === 'healed').length,
    inBetween: results.filter((r) => r.outcome === 'in between').length,
    conflicts: results.reduce((n, r) => n + r.conflicts, 0),
    /** Trials whose killed run left a test process running, which `suture recover` then stopped. */
    orphans: results.filter((r) => r.orphans > 0).length,
    /** Files of the user's tree a run in a private workspace changed before its heals landed (must be 0). */
    writtenBeforeEnd: results.reduce((n, r) => n + (r.writtenBeforeEnd ?? 0), 0),
    workspace,
    failedTrials: results.filter((r) => r.problems.length > 0),
    hits,
    /** Kills by the last point the run logged (atomic:renaming: a temp file written, not yet renamed). */
    points,
    cleanRunMs: ctx.fullMs,
  };
  if (summary.failedTrials.length === 0) await removeDir(ctx.base);
  else summary.keptAt = ctx.base;
  return summary;
}
