// Runs one case of the adversarial benchmark through the built CLI: a fresh copy of its
// runner's project (a CMake tree built once and copied, timestamps kept, so only what a case
// changes is rebuilt), the case's own files, a config naming the proposal fixer by path, then
// `suture run --json`, and what the gate did with the proposal.
import { execFile, execFileSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROJECTS } from './projects.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO = join(HERE, '..', '..');
const BIN = join(REPO, 'packages/cli/dist/bin.js');
const FIXER = join(HERE, 'proposal-fixer.mjs');
const SHTEST = join(HERE, 'shtest-runner.mjs');

async function writeFiles(dir, files) {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), text);
  }
}

function config(dir, runner, edits) {
  const rel = (p) => {
    const r = relative(dir, p);
    return r.startsWith('.') ? r : `./${r}`;
  };
  return {
    projects: [{ name: 'p', root: '.', runner: runner === 'shtest' ? rel(SHTEST) : runner }],
    fixers: edits ? [[rel(FIXER), { edits }]] : [],
    heal: { maxAttempts: 1, flakyReruns: 0, regression: false },
    reporters: ['json'],
  };
}

function suture(args, cwd) {
  return new Promise((resolve) => {
    const { FORCE_COLOR: _f, NO_COLOR: _n, ...env } = process.env;
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, env: { ...env, CI: '1' }, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? (error.code ?? null) : 0, stdout, stderr }),
    );
  });
}

/**
 * A runner's project, ready to copy: its files in a git repository, and for CMake a build tree
 * made by a first `suture run --no-heal`. Cases run one after another in `<work>/<runner>/p`,
 * always the same path, as a CMake build tree cannot move.
 */
export async function prepare(work, runner) {
  const base = join(work, runner);
  const template = join(base, 'template');
  const dir = join(base, 'p');
  await rm(base, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const project = PROJECTS[runner];
  await writeFiles(dir, { ...project.files, '.gitignore': '.suture/\nbuild-suture/\nsuture.config.json\n' });
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync('git', ['add', '-A'], { cwd: dir });
  execFileSync(
    'git',
    ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', 'commit', '-qm', 'base'],
    {
      cwd: dir,
    },
  );
  if (runner === 'gtest') {
    await writeFile(join(dir, 'suture.config.json'), JSON.stringify(config(dir, project.runner)));
    await suture(['run', '--no-heal', '--json'], dir);
    await rm(join(dir, '.suture'), { recursive: true, force: true });
    await rm(join(dir, 'suture.config.json'), { force: true });
  }
  execFileSync('cp', ['-a', dir, template]);
  return { runner, dir, template };
}

const line = (text) =>
  String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 240);

/** What became of a proposal: kept (flagged or not) or refused, with the gate's reason. */
export function verdictOf(report) {
  const project = report?.projects?.[0];
  if (!project) return { outcome: 'broken', reason: 'no report' };
  const failures = project.failures ?? [];
  if (failures.length === 0)
    return { outcome: 'broken', reason: `the project did not fail (${project.status})` };
  const attempts = failures.flatMap((f) => f.attempts ?? []);
  const healed = failures.some((f) => f.outcome === 'healed');
  const kept = attempts.find((a) => a.verdict === 'healed');
  if (healed && kept)
    return {
      outcome: kept.expectationChanged || kept.unreadTests?.length ? 'flagged' : 'unflagged',
      reason: '',
    };
  const a = attempts[0];
  if (!a) return { outcome: 'refused', reason: line(`${failures[0].outcome}: ${failures[0].reason ?? ''}`) };
  if (a.verdict === 'failed-validation') {
    const still = a.validation?.stillFailing?.[0];
    const why =
      a.reason ?? (still ? `${still.id}: ${still.message ?? 'still fails'}` : 'the tests still fail');
    return { outcome: 'refused', reason: line(`validation: ${why}`) };
  }
  if (a.verdict === 'refused') return { outcome: 'refused', reason: line(a.reason) };
  return { outcome: 'refused', reason: line(`${a.verdict}: ${a.reason ?? ''}`) };
}

/** Runs one case in the runner's prepared folder; returns its verdict and the time it took. */
export async function runCase(prepared, c) {
  const started = Date.now();
  const { dir, template, runner } = prepared;
  await rm(dir, { recursive: true, force: true });
  execFileSync('cp', ['-a', template, dir]);
  if (c.base) await writeFiles(dir, c.base);
  await writeFile(
    join(dir, 'suture.config.json'),
    JSON.stringify(config(dir, PROJECTS[runner].runner, c.edits)),
  );
  const r = await suture(['run', '--json'], dir);
  let report;
  try {
    report = JSON.parse(r.stdout);
  } catch {
    return {
      outcome: 'broken',
      reason: line(`exit ${r.code}: ${r.stderr || r.stdout}`),
      ms: Date.now() - started,
    };
  }
  // the runs the differential check added: one per proposal of tests and code that validated
  const differentialRuns = (report.projects ?? [])
    .flatMap((p) => p.failures ?? [])
    .flatMap((f) => f.attempts ?? [])
    .filter((a) => a.differential).length;
  return { ...verdictOf(report), differentialRuns, ms: Date.now() - started };
}
