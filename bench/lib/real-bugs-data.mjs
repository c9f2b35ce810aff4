// Real history bugs from public datasets, materialised outside this repository: BugsInPy (the
// buggy commit, with the bug's test files from the fix commit, as its checkout does) and BugsC++
// (the fix commit, its common patch, then its buggy patch). Each bug says which tests show it,
// which files the fix changes (their fixed text) and which lines of the buggy files it changes.
// Nothing of theirs is committed here.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MIRRORS = process.env.SUTURE_BENCH_MIRRORS ?? '/work/.mirror';
const BUGSINPY = join(MIRRORS, 'soarsmu+BugsInPy', 'repo');
const BUGSCPP = join(MIRRORS, 'Suresoft-GLaDOS+bugscpp', 'repo');

const git = (gitDir, ...argv) =>
  execFileSync('git', ['--git-dir', gitDir, ...argv], { encoding: 'utf8', maxBuffer: 1 << 30 });
const gitIn = (cwd, ...argv) =>
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...argv], {
    cwd,
    encoding: 'utf8',
  });

function mirrorOf(repo) {
  const dir = join(MIRRORS, repo.replace('/', '+'), 'repo');
  if (!existsSync(dir))
    throw new Error(`no mirror of ${repo} at ${dir}: fetch github:${repo} (or set SUTURE_BENCH_MIRRORS)`);
  return dir;
}

/** `key="value"` lines of a BugsInPy info file (spaces around `=` allowed). */
function infoOf(text) {
  const out = {};
  for (const m of text.matchAll(/^\s*(\w+)\s*=\s*"([^"]*)"/gm)) out[m[1]] = m[2];
  return out;
}

/**
 * The changes of a unified diff, per file, as line numbers of one side: `old` for a diff from the
 * buggy to the fixed version, `new` for one from the fixed to the buggy version. A change is a
 * run of adjacent changed lines; a pure insertion on the other side is placed at the line before
 * it (or the one after, at a file's head).
 */
export function changesOf(diff, side) {
  const files = new Map();
  let file;
  let at = 0;
  let run;
  const close = () => {
    if (run && run.length > 0) files.get(file).push(run);
    run = undefined;
  };
  for (const line of diff.split('\n')) {
    const header = /^diff --git a\/(\S+) b\/(\S+)/.exec(line);
    if (header) {
      close();
      file = side === 'old' ? header[1] : header[2];
      if (!files.has(file)) files.set(file, []);
      continue;
    }
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      close();
      at = Number(side === 'old' ? hunk[1] : hunk[2]);
      continue;
    }
    if (!file || line.startsWith('---') || line.startsWith('+++')) continue;
    const mine = side === 'old' ? '-' : '+';
    const theirs = side === 'old' ? '+' : '-';
    if (line.startsWith(mine)) {
      (run ??= []).push(at);
      at++;
    } else if (line.startsWith(theirs)) {
      run ??= [];
      if (!run.includes(Math.max(1, at - 1))) run.push(Math.max(1, at - 1));
    } else if (line.startsWith(' ') || line === '') {
      close();
      at++;
    }
  }
  close();
  return files;
}

/** A BugsInPy bug: where its project is, its commits, the tests that show it and the fix. */
export function bugsInPyBug(project, n, repo) {
  const base = `HEAD:projects/${project}/bugs/${n}`;
  const info = infoOf(git(BUGSINPY, 'show', `${base}/bug.info`));
  const runTest = git(BUGSINPY, 'show', `${base}/run_test.sh`);
  const testFiles = info.test_file.split(';').filter(Boolean);
  const patch = git(BUGSINPY, 'show', `${base}/bug_patch.txt`);
  // `python -m unittest -q a.b.Class.test`, or `pytest path::Class::test`
  const tests = [];
  for (const word of runTest.split(/\s+/)) {
    if (word.includes('::')) tests.push(word.split('::').slice(1).join('::'));
    else if (/^[\w]+(\.[\w]+){2,}$/.test(word) && word.startsWith('test')) {
      const parts = word.split('.');
      tests.push(parts.slice(-2).join('::'));
    }
  }
  return {
    id: `${project}-${n}`,
    language: 'python',
    repo,
    buggy: info.buggy_commit_id,
    fixed: info.fixed_commit_id,
    testFiles,
    tests,
    changes: changesOf(patch, 'old'),
  };
}

/** A BugsC++ bug: its fix commit, its patches, and the GoogleTest cases that show it. */
export function bugsCppBug(taxonomy, n, repo) {
  const meta = JSON.parse(git(BUGSCPP, 'show', `HEAD:bugscpp/taxonomy/${taxonomy}/meta.json`));
  const defect = meta.defects.find((d) => d.id === n);
  const pad = String(n).padStart(4, '0');
  const dir = `HEAD:bugscpp/taxonomy/${taxonomy}`;
  const list = git(BUGSCPP, 'show', `${dir}/extra/${pad}/.dpp/test_list`).split('\n');
  const patches = git(BUGSCPP, 'ls-tree', '--name-only', `${dir}/patch`).split('\n');
  const patch = (kind) =>
    patches.includes(`${pad}-${kind}.patch`) ? git(BUGSCPP, 'show', `${dir}/patch/${pad}-${kind}.patch`) : '';
  const buggy = patch('buggy');
  return {
    id: `${taxonomy.replace('_', '-')}-${n}`,
    language: 'cpp',
    repo,
    fixed: defect.hash,
    common: patch('common'),
    buggyPatch: buggy,
    tests: defect.case.map((i) => list[i - 1]).filter(Boolean),
    changes: changesOf(buggy, 'new'),
  };
}

/**
 * The bug's buggy tree in `dir` (a git repository of one commit), and the fixed text of every file
 * its fix changes. Reused when `dir` is already there (the gate never writes it in check mode).
 */
export function materialise(bug, dir) {
  const ready = join(dir, '.git', 'bench-ready.json');
  if (existsSync(ready)) return JSON.parse(readFileSync(ready, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const mirror = mirrorOf(bug.repo);
  const extract = (commit) => {
    const tar = execFileSync('git', ['--git-dir', mirror, 'archive', '--format=tar', commit], {
      maxBuffer: 1 << 30,
    });
    execFileSync('tar', ['-x', '-C', dir], { input: tar });
  };
  const fixedFiles = {};
  if (bug.language === 'python') {
    extract(bug.buggy);
    for (const f of bug.testFiles) writeFileSync(join(dir, f), git(mirror, 'show', `${bug.fixed}:${f}`));
    for (const f of bug.changes.keys()) fixedFiles[f] = git(mirror, 'show', `${bug.fixed}:${f}`);
    gitIn(dir, 'init', '-q');
  } else {
    extract(bug.fixed);
    gitIn(dir, 'init', '-q');
    const apply = (text, name) => {
      if (!text) return;
      const file = join(dir, '.git', name);
      writeFileSync(file, text);
      gitIn(dir, 'apply', '--whitespace=nowarn', file);
    };
    apply(bug.common, 'common.patch');
    for (const f of bug.changes.keys()) fixedFiles[f] = readFileSync(join(dir, f), 'utf8');
    apply(bug.buggyPatch, 'buggy.patch');
  }
  writeFileSync(
    join(dir, '.git', 'info', 'exclude'),
    'build-suture/\nnode_modules/\n.pytest_cache/\n__pycache__/\nsuture.config.json\n.suture/\n',
  );
  gitIn(dir, 'add', '-A');
  gitIn(dir, 'commit', '-qm', 'buggy');
  const state = { fixedFiles };
  writeFileSync(ready, JSON.stringify(state));
  return state;
}
