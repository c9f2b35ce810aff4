import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Generator as TestGenerator } from '@suture/core';
import { loadPlugin, projectFiles, splitSpec, wrapGenerator, type GateProject } from '@suture/core/internal';
import { UsageError } from '../exit.js';
import { createLogger } from '../logger.js';
import { autoRunAndReport, list, prepare, projectRelative, type AutoRunFlags } from './autorun.js';
import { generatorSpec } from './generator-spec.js';

export interface GenerateTestsFlags extends AutoRunFlags {
  /** Positional targets after `generate tests`: files, `file::function`, or none for the project. */
  targets?: string[];
  generator?: string;
  generatorOptions?: string;
  generations?: number | string;
  /** false with `--no-auto-run`: write the generated files and stop. */
  autoRun?: boolean;
}

const SOURCES: Record<string, RegExp> = {
  python: /\.py$/,
  cpp: /\.(c|cc|cpp|cxx)$/,
  c: /\.c$/,
  javascript: /\.(js|mjs|cjs|ts|mts|cts|jsx|tsx)$/,
  typescript: /\.(ts|mts|cts|tsx)$/,
};

/** Targets as given: `src/ops.py` or `src/ops.py::clamp`; none means the project's own sources. */
async function targetsOf(
  project: GateProject,
  given: readonly string[],
): Promise<{ files: string[]; symbols: string[] }> {
  if (given.length) {
    const split = given.map((t) => {
      const at = t.indexOf('::');
      return at < 0 ? { file: t, symbol: undefined } : { file: t.slice(0, at), symbol: t.slice(at + 2) };
    });
    return {
      files: [
        ...new Set(
          projectRelative(
            project,
            split.map((s) => s.file),
          ),
        ),
      ],
      symbols: split.map((s) => s.symbol).filter((s): s is string => Boolean(s)),
    };
  }
  const source = SOURCES[project.runner.language];
  const files = (await projectFiles(project.root)).filter(
    (f) => source?.test(f) && !project.analyzer.isTestFile?.(f),
  );
  if (files.length === 0)
    throw new UsageError(
      `project ${project.name} has no ${project.runner.language} source outside its tests; name a target file`,
    );
  return { files, symbols: [] };
}

function parseOptions(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new UsageError(`--generator-options expects a JSON object, e.g. '{"model":"sonnet"}', got ${text}`);
}

/**
 * `suture generate tests [target...]`: asks the generator plugin for unit tests of the targets,
 * then (unless --no-auto-run) builds, runs, heals and keeps only the tests that compile, pass
 * repeatedly and raise the target's coverage.
 */
export async function generateCommand(flags: GenerateTestsFlags): Promise<number> {
  if (!flags.generator)
    throw new UsageError(
      "suture generate tests needs --generator <plugin>: claude or openai (an LLM fixer writes the tests, with @suture/generator-llm), llm (the config's first LLM fixer), or a generator plugin (a package or a path)",
    );
  const given = list(flags.targets);
  const prepared = await prepare(
    flags,
    given.map((t) => t.split('::')[0]!),
  );
  const { project, loaded } = prepared;
  const spec = generatorSpec(flags.generator, parseOptions(flags.generatorOptions), loaded.config.fixers);
  const ref = splitSpec(spec, {
    configFile: loaded.display,
    keyPath: '--generator',
  });
  // through the wrapper, as every plugin: a throw names the generator and --generator
  const generator: TestGenerator = wrapGenerator(
    await loadPlugin('generator', ref, loaded.dir),
    ref.origin,
    createLogger(),
  );
  const target = await targetsOf(project, given);
  const options = target.symbols.length ? { symbols: target.symbols } : {};
  if (flags.autoRun === false) {
    const result = await generator.generate(
      {
        project: { name: project.name, root: project.root, language: project.runner.language },
        goal: 'tests',
        inputs: target.files,
        // so a generator adds to them and takes them as examples; only the auto-run looks up callers
        existingTests: (await projectFiles(project.root)).filter((f) => project.analyzer.isTestFile?.(f)),
        options,
      },
      { signal: new AbortController().signal, logger: createLogger(), root: project.root },
    );
    for (const f of result.files) {
      await mkdir(dirname(join(project.root, f.file)), { recursive: true });
      await writeFile(join(project.root, f.file), f.content, { flag: 'wx' });
      process.stdout.write(`wrote ${f.file} (not run: --no-auto-run)\n`);
    }
    return 0;
  }
  return autoRunAndReport(prepared, { kind: 'generator', generator, options }, target.files, flags);
}
