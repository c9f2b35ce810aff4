import { readdir, readFile, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { picomatch } from '../../text/glob.js';
import type { GenerateRequest } from '../../api/plugin.js';
import type { GateProject } from '../types.js';

const SKIPPED = new Set(['node_modules', '__pycache__', 'venv', 'env', 'build', 'dist', 'coverage']);
const MAX_FILES = 20_000;
const SOURCE = /\.(py|pyi|c|cc|cpp|cxx|h|hh|hpp|hxx|js|jsx|mjs|cjs|ts|tsx|mts|cts)$/;

/** Project-relative POSIX paths of the project's files, without dependencies, builds and dot folders. */
export async function projectFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= MAX_FILES) return;
      if (e.name.startsWith('.') || SKIPPED.has(e.name) || e.name.startsWith('build')) continue;
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(join(dir, e.name), path);
      else if (e.isFile()) out.push(path);
    }
  };
  await walk(root, '');
  return out;
}

/** Files matching project-relative globs. */
export async function matchingFiles(root: string, globs: readonly string[]): Promise<string[]> {
  const match = picomatch([...globs], { dot: true });
  return (await projectFiles(root)).filter((f) => match(f));
}

/**
 * Source files that name a target's module (its file name without extension), for a generator
 * to show how the target is used. Bounded: files over 256 KiB are not read, 20 callers at most.
 */
async function callersOf(
  root: string,
  files: readonly string[],
  target: readonly string[],
): Promise<string[]> {
  const stems = target.map((t) => posix.basename(t).replace(/\.[^.]+$/, ''));
  const callers: string[] = [];
  for (const file of files) {
    if (callers.length >= 20) break;
    if (!SOURCE.test(file) || target.includes(file)) continue;
    const path = join(root, file);
    if ((await stat(path)).size > 256 * 1024) continue;
    const text = await readFile(path, 'utf8');
    if (stems.some((s) => new RegExp(`\\b${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text)))
      callers.push(file);
  }
  return callers;
}

/** The request a generator gets for the target: inputs, existing tests, callers. */
export async function generateRequest(
  project: GateProject,
  target: readonly string[],
  options: Record<string, unknown>,
): Promise<GenerateRequest> {
  const files = await projectFiles(project.root);
  const isTest = (f: string): boolean => project.analyzer.isTestFile?.(f) ?? false;
  const existingTests = files.filter(isTest);
  const callers = await callersOf(
    project.root,
    files.filter((f) => !isTest(f)),
    target,
  );
  return {
    project: { name: project.name, root: project.root, language: project.runner.language },
    goal: 'tests',
    inputs: [...target],
    existingTests,
    options,
    callers,
  };
}
