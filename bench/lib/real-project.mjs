// What the benchmarks on real open-source projects share: a project materialised at its pinned
// commit from a local git mirror (or GitHub) in a temporary folder outside this repository, with
// suture's configs beside it, a `suture run --no-heal` gate read from its JSON report, and a
// targeted re-run of one test through the runner's own `run` with a selection.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const REPO = resolve(HERE, '../..');
export const SUTURE = resolve(REPO, 'packages/cli/dist/bin.js');
export const MIRRORS = process.env.SUTURE_BENCH_MIRRORS ?? '/work/.mirror';
/** The same gate run in the tree itself, without the sandbox: what the isolation costs. */
export const IN_PLACE = 'suture.in-place.json';

export function run(cmd, argv, cwd, env = {}, allowFail = false) {
  const r = spawnSync(cmd, argv, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  if (r.status !== 0 && !allowFail)
    throw new Error(
      `${cmd} ${argv.join(' ')} exited ${r.status} in ${cwd}\n${(r.stderr || r.stdout).slice(-2000)}`,
    );
  return r;
}

export function timedMs(fn) {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** `--repeats N` taken out of argv (default 3); what is left are the names asked for. */
export function benchArgs(argv = process.argv.slice(2)) {
  const args = [...argv];
  const repeatsAt = args.indexOf('--repeats');
  const repeats = repeatsAt >= 0 ? Number(args.splice(repeatsAt, 2)[1]) : 3;
  return { repeats, only: args };
}

/**
 * The project at its pinned commit in a new temporary folder, committed as one commit of a fresh
 * git repository, with `suture.config.json` and the in-place config beside it (untracked).
 *   project: { name, repo: 'owner/name', commit, runner: [name, options] }
 *   exclude: lines for .git/info/exclude (build folders the native runs make)
 */
export function materialise(project, { exclude = [] } = {}) {
  const mirror = join(MIRRORS, project.repo.replace('/', '+'), 'repo');
  const dir = mkdtempSync(join(tmpdir(), `suture-real-${project.name}-`));
  try {
    fill(project, mirror, dir, exclude);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return dir;
}

function fill(project, mirror, dir, exclude) {
  if (existsSync(mirror)) {
    const tar = execFileSync('git', ['--git-dir', mirror, 'archive', '--format=tar', project.commit], {
      maxBuffer: 1024 * 1024 * 1024,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  } else {
    run('git', ['clone', '--quiet', `https://github.com/${project.repo}.git`, dir], tmpdir());
    run('git', ['checkout', '--quiet', project.commit], dir);
    rmSync(join(dir, '.git'), { recursive: true, force: true });
  }
  run('git', ['init', '-q'], dir);
  writeFileSync(
    join(dir, '.git', 'info', 'exclude'),
    ['build-native/', 'node_modules/', '.pytest_cache/', ...exclude, ''].join('\n'),
  );
  run('git', ['add', '-A'], dir);
  run('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-qm', 'pinned'], dir);
  const config = sutureConfig(project);
  writeFileSync(join(dir, 'suture.config.json'), JSON.stringify(config, null, 2));
  writeFileSync(
    join(dir, IN_PLACE),
    JSON.stringify({ ...config, workspace: 'in-place', sandbox: 'off' }, null, 2),
  );
}

/** suture's config for the project: its runner, the JSON report, and a limit a cold build fits in. */
export function sutureConfig(project, extra = {}) {
  return {
    projects: [{ name: project.name, root: '.', runner: project.runner }],
    reporters: ['json'],
    // a cold build of a large project on a loaded machine may take longer than the default
    timeoutMs: 3_600_000,
    ...extra,
  };
}

/** suture resolves its plugins from the config file's folder, as it would in the user's repository. */
export function linkSuture(dir) {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(resolve(REPO, 'node_modules/@suture'), join(dir, 'node_modules', '@suture'));
}

/** `suture run --json` in `dir` (`--no-heal` unless heal is set); its JSON report. */
export function sutureGate(dir, config, { heal = false } = {}) {
  const argv = [
    SUTURE,
    'run',
    ...(heal ? [] : ['--no-heal']),
    '--json',
    '--reporter',
    'json',
    ...(config ? ['--config', config] : []),
  ];
  const r = run('node', argv, dir, {}, true);
  if (r.status !== 0 && r.status !== 1)
    throw new Error(`suture exited ${r.status}:\n${r.stderr.slice(-3000)}`);
  try {
    return JSON.parse(r.stdout);
  } catch {
    // exit 1 is also how Node ends on a module it cannot load (a dist folder being rebuilt)
    throw new Error(`suture exited ${r.status} without a JSON report:\n${r.stderr.slice(-3000)}`);
  }
}

/** The round that says how the suite stands: the last initial or regression run. */
export function finalRound(report) {
  const rounds = report.projects[0].rounds;
  return [...rounds].reverse().find((r) => r.kind === 'initial' || r.kind === 'regression') ?? rounds[0];
}

/** Counts of a gate's report, as the native counts are kept. */
export function reportCounts(report) {
  const t = report.totals;
  return { tests: t.tests, passed: t.passed, failed: t.failed, skipped: t.skipped };
}

/**
 * The runner's own `run` on the project, in-process: the whole suite against `selection` alone
 * (one test id of the runner's), each `repeats` times; medians in ms and the tests each ran.
 */
export async function targetedRerun(project, dir, selection, repeats) {
  const [runner, options] = project.runner;
  // by alias (`go`) or by package name (`@suture/runner-vitest`)
  const pkg = runner.replace(/^@suture\/runner-/, '');
  const mod = await import(`../../packages/runner-${pkg}/dist/index.js`);
  const { silentLogger } = await import('../../packages/core/dist/testing/index.js');
  const plugin = mod.default(options, { configDir: dir });
  const once = async (sel) => {
    const workDir = mkdtempSync(join(tmpdir(), 'suture-real-work-'));
    const t = performance.now();
    const r = await plugin.run({
      root: dir,
      workDir,
      timeoutMs: 1_800_000,
      signal: new AbortController().signal,
      logger: silentLogger,
      ...(sel ? { selection: sel } : {}),
    });
    const ms = performance.now() - t;
    rmSync(workDir, { recursive: true, force: true });
    return {
      ms,
      tests: r.tests?.length ?? 0,
      failed: r.tests?.filter((x) => x.status === 'failed').length ?? 0,
    };
  };
  const full = [];
  const one = [];
  let last;
  for (let i = 0; i < repeats; i++) {
    full.push((await once()).ms);
    last = await once(selection);
    one.push(last.ms);
  }
  return { full: median(full), one: median(one), ran: last.tests, failed: last.failed };
}

export function fmt(c) {
  return c ? `${c.tests} (${c.passed}/${c.failed}/${c.skipped})` : 'n/a';
}
