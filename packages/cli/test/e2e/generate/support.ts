import { execFileSync } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  API_VERSION,
  defineFixer,
  defineGenerator,
  type FixProposalInput,
  type GenerateRequest,
  type GenerateResult,
  type GeneratedFile,
  type Runner,
} from '@suture/core';
import { silentLogger } from '@suture/core/testing';
import { HealConfigSchema } from '@suture/core';
import type { AutoRunOptions, GateProject } from '@suture/core/internal';

export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** What the scripted generator writes on each attempt, given the request it got. */
export type Script = (request: GenerateRequest, attempt: number) => GeneratedFile[];

export interface ScriptedGenerator {
  requests: GenerateRequest[];
  generator: ReturnType<typeof defineGenerator>;
}

/** A generator that writes what the test scripts: the stand-in for an LLM. */
export function scriptedGenerator(language: string, script: Script): ScriptedGenerator {
  const requests: GenerateRequest[] = [];
  const generator = defineGenerator({
    name: 'scripted-generator',
    apiVersion: API_VERSION,
    language,
    async generate(request): Promise<GenerateResult> {
      requests.push(request);
      const files = script(request, requests.length);
      return {
        files,
        plan: {
          summary: `${files.length} scripted files`,
          tests: files.map((f) => ({ file: f.file, test: f.file, covers: request.inputs.join(', ') })),
        },
        usage: { calls: 1, costUsd: 0.001 },
      };
    },
  });
  return { requests, generator };
}

/**
 * A fixer that heals the commonest mistake of a generated test, a missing import: when the
 * failure's evidence matches, it adds the import line at the top of the file that uses `marker`.
 * Anything else is unfixable. Stands in for the LLM fixers.
 */
export function importFixer(
  evidence: RegExp,
  marker: string,
  line: string,
): ReturnType<typeof defineFixer> & { calls: string[] } {
  const calls: string[] = [];
  const fixer = defineFixer({
    name: 'import-fixer',
    apiVersion: API_VERSION,
    async propose(request): Promise<FixProposalInput> {
      calls.push(request.failure.title);
      if (!evidence.test(`${request.failure.title}\n${request.failure.evidence}`))
        return { verdict: 'unfixable', diagnosis: 'not a missing import' };
      const files = [request.failure.location?.file, ...request.scope.entries.map((e) => e.file)];
      for (const file of files) {
        if (!file) continue;
        const text = await readFile(join(request.project.root, file), 'utf8').catch(() => '');
        if (text.includes(marker) && !text.includes(line))
          return {
            verdict: 'edits',
            edits: [{ file, content: `${line}\n${text}` }],
            rationale: `${marker} needs ${line}`,
          };
      }
      return { verdict: 'unfixable', diagnosis: `no file in the scope uses ${marker}` };
    },
  });
  return Object.assign(fixer, { calls });
}

export function gateProject(name: string, root: string, runner: Runner, timeoutMs = 300_000): GateProject {
  const analyzer = runner.analyzer?.();
  if (!analyzer) throw new Error(`${runner.name} brings no analyzer`);
  return { name, root, runner, analyzer, timeoutMs, heal: HealConfigSchema.parse({}) };
}

export function autoRunOptions(
  root: string,
  project: GateProject,
  rest: Omit<AutoRunOptions, 'root' | 'outputDir' | 'project' | 'logger'>,
): AutoRunOptions {
  return { root, outputDir: join(root, '.suture', 'generate'), project, logger: silentLogger, ...rest };
}

/** Every file under `dir` with its bytes, but suture's own folder and build output. */
export async function tree(dir: string, skip: readonly string[] = []): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const path = join(d, e.name);
      const rel = relative(dir, path);
      if (['.suture', '.git', '__pycache__', ...skip].includes(e.name) || e.name.startsWith('build'))
        continue;
      if (e.isDirectory()) await walk(path);
      else out[rel] = await readFile(path, 'utf8');
    }
  };
  await walk(dir);
  return out;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'suture test',
      GIT_AUTHOR_EMAIL: 'test@example.com',
      GIT_COMMITTER_NAME: 'suture test',
      GIT_COMMITTER_EMAIL: 'test@example.com',
    },
  });
}

/** A git repository of the folder as it is, so `gitCheckout` has a HEAD to check out. */
export function commitAll(cwd: string): void {
  git(cwd, 'init', '-q');
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-q', '-m', 'fixture');
}

export async function removeCounter(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** Fails when SUTURE_REQUIRE_TOOLCHAINS=1 and a Python module is missing; skips otherwise. */
export function requirePythonModule(
  test: { skip(note: string): void },
  module: string,
  install: string,
): void {
  try {
    execFileSync('python3', ['-c', `import ${module}`], { stdio: 'ignore' });
  } catch {
    const missing = `the Python module ${module} is not installed (${install})`;
    if (process.env.SUTURE_REQUIRE_TOOLCHAINS === '1')
      throw new Error(`${missing}; SUTURE_REQUIRE_TOOLCHAINS=1 requires every toolchain a test uses`);
    test.skip(missing);
  }
}
