import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { secretLiterals } from './redact.js';
import { mayHoldSecretName, secretNameHint } from './secret-names.js';
import { walkFiles, WALK_SKIP } from './walk-files.js';

const exec = promisify(execFile);

/** Sources and settings files, where a credential is written as a literal under its name. */
const SOURCE_FILE =
  /\.(py|pyi|js|mjs|cjs|jsx|ts|mts|cts|tsx|c|cc|cpp|cxx|h|hh|hpp|hxx|go|rs|java|kt|rb|php|cs|swift|scala|sh|bash|ya?ml|json|toml|ini|cfg|conf|properties|tf|tfvars)$/i;
/** Besides dependencies: build outputs and caches, which copy the sources or hold none. */
const SOURCE_SKIP = new Set([
  ...WALK_SKIP,
  'dist',
  'out',
  'target',
  'coverage',
  'site-packages',
  '.tmp',
  '.cache',
  '.tox',
  '.nox',
  '.mypy_cache',
  '.pytest_cache',
  '.next',
]);
const SOURCE_FILES = 2000;
const SOURCE_BYTES = 128 * 1024;

/**
 * The literals of `sourceLiteralValues` by a bounded walk, where git is not there to ask: only
 * the lines that hold a secret-looking name are scanned.
 */
async function walkedLiteralValues(roots: readonly string[], names: readonly RegExp[]): Promise<string[]> {
  const values = new Set<string>();
  const named = names.length > 0 ? (line: string): boolean => names.some((n) => n.test(line)) : undefined;
  for (const root of roots) {
    const files = await walkFiles(root, (rel) => SOURCE_FILE.test(rel), SOURCE_FILES, SOURCE_SKIP);
    await Promise.all(
      files.map(async (file) => {
        const st = await stat(file).catch(() => undefined);
        if (!st || st.size > SOURCE_BYTES) return;
        const text = await readFile(file, 'utf8').catch(() => '');
        if (!mayHoldSecretName(text) && !named) return;
        const lines = text.split('\n').filter((l) => mayHoldSecretName(l) || named?.(l));
        for (const v of secretLiterals(lines.join('\n'), names)) values.add(v);
      }),
    );
  }
  return [...values];
}

/** The most values learned from the sources. */
const MAX_VALUES = 1000;
/** Lines longer than this are generated (minified code, data), not a literal someone wrote. */
const LINE_CHARS = 2000;

/**
 * The lines of the repository's sources that hold a secret-looking name, by `git grep` (which
 * reads the tracked and untracked files and skips ignored ones, dependencies and build outputs
 * included, in a fraction of a walk's time); undefined where `root` is not a git work tree.
 */
async function grepLines(
  root: string,
  roots: readonly string[],
  names: readonly RegExp[],
): Promise<string[] | undefined> {
  const patterns = [secretNameHint(), ...names].flatMap((re) => ['-e', re.source]);
  const paths = roots.map((r) => relative(root, r).split(sep).join('/') || '.');
  try {
    const { stdout } = await exec(
      'git',
      [
        '-c',
        'core.fsmonitor=false',
        '--no-optional-locks',
        'grep',
        '--untracked',
        '-I',
        '-i',
        '-E',
        '--null',
        '--no-color',
        ...patterns,
        '--',
        ...paths,
        // dependencies and outputs an ignore file does not name; suture's run folders (reports,
        // and the raw output of earlier runs)
        ...[...SOURCE_SKIP].map((dir) => `:(exclude,glob)**/${dir}/**`),
      ],
      { cwd: root, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' },
    );
    return linesOf(stdout);
  } catch (error) {
    // 1: nothing matched, or the folder is one git ignores (a project under an ignored folder of
    // an enclosing repository), whose files it does not search; anything else: no work tree, no git
    if ((error as { code?: unknown }).code !== 1) return undefined;
    return (await ignoredByGit(root)) ? undefined : [];
  }
}

async function ignoredByGit(dir: string): Promise<boolean> {
  try {
    await exec('git', ['check-ignore', '-q', '--', '.'], { cwd: dir });
    return true;
  } catch {
    return false;
  }
}

/** `file\0line` records of git grep: the lines of source files, generated ones left out. */
function linesOf(stdout: string): string[] {
  const lines: string[] = [];
  for (const record of stdout.split('\n')) {
    const nul = record.indexOf('\0');
    if (nul < 0 || !SOURCE_FILE.test(record.slice(0, nul))) continue;
    const line = record.slice(nul + 1);
    if (line.length <= LINE_CHARS) lines.push(line);
  }
  return lines;
}

/**
 * The values the projects' sources assign to secret names (`DB_PASSWORD = "..."`, `password:
 * ...` in a settings file), learned before any test runs: a test that prints one is redacted from
 * its first line of output on, not only once its source has been shown to a fixer.
 */
export async function sourceLiteralValues(
  root: string,
  roots: readonly string[],
  names: readonly RegExp[],
): Promise<string[]> {
  const lines = await grepLines(root, roots, names);
  const values =
    lines === undefined ? await walkedLiteralValues(roots, names) : secretLiterals(lines.join('\n'), names);
  // every value is looked for in every string redacted: a repository of fixtures holding
  // thousands would slow every report down
  return values.slice(0, MAX_VALUES);
}
