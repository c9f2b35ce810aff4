import {
  API_VERSION,
  defineGenerator,
  UsageSchema,
  type Fixer,
  type FixProposalInput,
  type GeneratedFile,
  type GeneratedTest,
  type Generator as TestGenerator,
  type PluginFactoryContext,
  type Usage,
} from '@suture/core';
import { addUsage, emptyUsage, PRIVATE_PATHS } from '@suture/core/llm';
import { briefFor } from './brief.js';
import { familyOf, FRAMEWORK, type Family } from './layout.js';
import { LlmGeneratorOptionsSchema, type LlmGeneratorOptions } from './options.js';
import { fixRequestFor } from './request.js';
import { testIds } from './test-names.js';
import { loadWriter, templateFor, writtenFile } from './writer.js';

const NAME = '@suture/generator-llm';

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Unit tests written by an LLM fixer of the config: one call and one new test file per target,
 * prompted with the target's code, the lines of its callers that use it and the project's own
 * tests as examples; from the second generation on, with the lines still uncovered and the
 * removed files and why. The fixer's answer is the file; its usage is the generation's.
 */
export default function llm(options: LlmGeneratorOptions, context?: PluginFactoryContext): TestGenerator {
  const o = LlmGeneratorOptionsSchema.parse(options);
  const configDir = context?.configDir ?? process.cwd();
  const writers = new Map<Family, Promise<Fixer>>();
  const earlier = new Map<string, { target: string; content: string }>();
  const writer = (family: Family): Promise<Fixer> => {
    let loaded = writers.get(family);
    if (!loaded) {
      loaded = loadWriter(o.fixer, templateFor(family, o.prompt, configDir), configDir);
      writers.set(family, loaded);
    }
    return loaded;
  };

  return defineGenerator({
    name: NAME,
    apiVersion: API_VERSION,
    language: 'any',
    async generate(request, ctx) {
      const family = familyOf(request.project.language, request.project.name);
      const fixer = await writer(family);
      const uncovered = request.feedback?.uncovered;
      // a later generation asks again only for the targets that still have lines to cover
      const wanted = request.inputs.filter(
        (t) => !uncovered || uncovered.some((u) => u.file === t && u.lines.length > 0),
      );
      if (wanted.length > o.maxTargets)
        ctx.logger.warn(
          `${NAME}: ${wanted.length} targets; asking for the first ${o.maxTargets} (the option "maxTargets")`,
        );
      const files: GeneratedFile[] = [];
      const tests: GeneratedTest[] = [];
      const problems: string[] = [];
      let usage: Usage = emptyUsage();
      for (const target of wanted.slice(0, o.maxTargets)) {
        const taken = new Set([...earlier.keys(), ...files.map((f) => f.file)]);
        const brief = await briefFor({ request, family, options: o, target, taken, earlier });
        if (!brief) {
          problems.push(`${target}: cannot read it`);
          continue;
        }
        ctx.logger.info(
          `${NAME}: asking ${fixer.name} for ${FRAMEWORK[family]} tests of ${target} in ${brief.file}`,
        );
        let answer: FixProposalInput;
        try {
          answer = await fixer.propose(fixRequestFor(brief), {
            signal: ctx.signal,
            logger: ctx.logger,
            root: request.project.root,
            privatePaths: PRIVATE_PATHS,
          });
        } catch (error) {
          const spent = (error as { usage?: unknown }).usage;
          if (spent) usage = addUsage(usage, UsageSchema.parse(spent));
          problems.push(`${target}: ${fixer.name} gave no usable answer: ${message(error)}`);
          continue;
        }
        if (answer.usage) usage = addUsage(usage, UsageSchema.parse(answer.usage));
        const dir = brief.file.slice(0, brief.file.lastIndexOf('/'));
        const written = writtenFile(answer, brief.file, dir);
        if (!written.ok) {
          if (written.declined) ctx.logger.warn(`${NAME}: ${target}: ${written.reason}`);
          else problems.push(`${target}: ${written.reason}`);
          continue;
        }
        const ids = testIds(family, brief.file, written.content);
        if (ids.length === 0) {
          problems.push(`${target}: the file the model wrote declares no ${FRAMEWORK[family]} test`);
          continue;
        }
        earlier.set(brief.file, { target, content: written.content });
        files.push({ file: brief.file, content: written.content });
        const covers = `${target}${brief.symbols.length ? ` (${brief.symbols.join(', ')})` : ''}`;
        tests.push(...ids.map((test) => ({ file: brief.file, test, covers })));
      }
      if (files.length === 0 && problems.length > 0)
        throw new Error(`${NAME} wrote no test file: ${problems.join('; ')}`);
      for (const p of problems) ctx.logger.warn(`${NAME}: ${p}`);
      return {
        files,
        plan: {
          summary: `${files.length} ${FRAMEWORK[family]} file(s) by ${fixer.name} for ${wanted.length} target(s)`,
          tests,
        },
        usage,
      };
    },
  });
}
