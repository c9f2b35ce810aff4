import { access } from 'node:fs/promises';
import { join, posix } from 'node:path';

/** The test frameworks this generator writes, by the project's runner language. */
export type Family = 'python' | 'cpp' | 'javascript';

const FAMILIES: Record<string, Family> = {
  python: 'python',
  cpp: 'cpp',
  c: 'cpp',
  javascript: 'javascript',
  typescript: 'javascript',
};

export const FRAMEWORK: Record<Family, string> = {
  python: 'pytest',
  cpp: 'GoogleTest',
  javascript: 'Jest',
};

/** The family of a project's language, or an error that says which languages are written. */
export function familyOf(language: string | undefined, project: string): Family {
  const family = language ? FAMILIES[language] : undefined;
  if (!family)
    throw new Error(
      `@suture/generator-llm writes pytest, GoogleTest and Jest tests (languages python, cpp, c, javascript, typescript); project ${project} is ${language ?? 'of no declared language'}`,
    );
  return family;
}

const FALLBACK_DIR: Record<Family, string> = {
  python: 'tests/gen',
  cpp: 'tests/gen',
  javascript: '__tests__/gen',
};

/**
 * Where generated tests go: the option, else a `gen` folder beside the best example test (where
 * the runner already looks for tests, with its conftest.py or Jest roots), else the family's
 * usual test folder. A C/C++ folder must be one of its own: suture writes its CMakeLists.txt.
 */
export function generatedDir(
  family: Family,
  option: string | undefined,
  example: string | undefined,
): string {
  if (option) return option.replace(/\/+$/, '');
  if (!example) return FALLBACK_DIR[family];
  const dir = posix.dirname(example);
  if (dir === 'gen' || dir.endsWith('/gen')) return dir;
  return dir === '.' ? FALLBACK_DIR[family] : `${dir}/gen`;
}

const word = (s: string): string => s.replace(/[^A-Za-z0-9_]/g, '_');

/** The file name for a target (and symbol) on an attempt, in the family's test-file convention. */
function fileName(
  family: Family,
  target: string,
  symbol: string | undefined,
  n: number,
  ext: string,
): string {
  const stem = word(posix.basename(target).replace(/\.[^.]+$/, ''));
  const name = `${stem}${symbol ? `_${word(symbol)}` : ''}${n > 1 ? `_${n}` : ''}`;
  if (family === 'python') return `test_gen_${name}.py`;
  if (family === 'cpp') return `${name}_test.cpp`;
  return `${name}.gen.test.${ext}`;
}

/** The extension of a generated Jest file: the example tests', else a plain JavaScript one. */
export function jestExtension(example: string | undefined): string {
  const m = example?.match(/\.test\.([cm]?[jt]sx?)$|\.spec\.([cm]?[jt]sx?)$|\.([cm]?[jt]sx?)$/);
  return m?.[1] ?? m?.[2] ?? m?.[3] ?? 'js';
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * A new file for the target: never one that exists or was handed out in this run, since a
 * generator only adds files.
 */
export async function newTestFile(input: {
  root: string;
  family: Family;
  dir: string;
  target: string;
  symbol: string | undefined;
  attempt: number;
  ext: string;
  taken: ReadonlySet<string>;
}): Promise<string> {
  for (let n = input.attempt; ; n++) {
    const file = `${input.dir}/${fileName(input.family, input.target, input.symbol, n, input.ext)}`;
    if (!input.taken.has(file) && !(await exists(join(input.root, file)))) return file;
  }
}

/** How the new file reaches the target, for the prompt (the example tests show the rest). */
export function importHint(family: Family, file: string, target: string, header: string | undefined): string {
  if (family === 'python') {
    const module = target
      .replace(/\.py$/, '')
      .replace(/\/__init__$/, '')
      .split('/')
      .join('.');
    return `the target's module from the project root: ${module}`;
  }
  if (family === 'cpp')
    return header
      ? `the target's header: ${header} (include it by the name the example tests use)`
      : 'the target has no header of the same name next to it: declare what the tests call as the example tests do';
  let rel = posix.relative(posix.dirname(file), target).replace(/\.[cm]?[jt]sx?$/, '');
  if (!rel.startsWith('.')) rel = `./${rel}`;
  return `the target from the new file: require('${rel}') or import from '${rel}', as the example tests do`;
}
