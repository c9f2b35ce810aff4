import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Fixer, FixProposalInput } from '@suture/core';
import { loadPlugin, PLUGIN_ALIASES, splitSpec } from '@suture/core/host';
import type { Family } from './layout.js';
import type { FixerSpec } from './options.js';

const PROMPTS = fileURLToPath(new URL('../prompts/', import.meta.url));

/** The template a family's tests are asked with: the user's own, else the shipped one. */
export function templateFor(family: Family, own: string | undefined, configDir: string): string {
  if (own) return isAbsolute(own) ? own : resolve(configDir, own);
  return resolve(PROMPTS, `${family}.md`);
}

/**
 * The fixer that writes the tests, loaded by name as the gate loads it, with its own options
 * (model, endpoint, key variable, cassette), and the generation template in place of its fix
 * prompts: every transport, its retries, redaction, pricing and cassettes come with it.
 */
export async function loadWriter(spec: FixerSpec, template: string, configDir: string): Promise<Fixer> {
  const [name, options] = typeof spec === 'string' ? [spec, {}] : spec;
  if ((PLUGIN_ALIASES[name] ?? name) === '@suture/fixer-hints')
    throw new Error(
      `the fixer "${name}" applies compiler fix-its and writes no tests; name an LLM fixer in the generator option "fixer": claude, openai, or a fixer built on @suture/core/llm`,
    );
  return loadPlugin(
    'fixer',
    splitSpec([name, { ...options, prompts: { build: template, logic: template } }], {
      configFile: '--generator-options',
      keyPath: 'fixer',
    }),
    configDir,
  );
}

export type Written = { ok: true; content: string } | { ok: false; reason: string; declined?: boolean };

/**
 * The new file's content from the fixer's answer: the whole-file edit of the expected path, or
 * the only whole-file edit when the model named the file otherwise inside the generated folder.
 * Anything else is a reason, said so the user can see what the model did.
 */
export function writtenFile(proposal: FixProposalInput, file: string, dir: string): Written {
  if (proposal.verdict === 'unfixable')
    return { ok: false, declined: true, reason: `the model wrote no test: ${proposal.diagnosis}` };
  if (proposal.verdict === 'product-bug')
    return {
      ok: false,
      declined: true,
      reason: `the model answered that the code is wrong instead of writing tests: ${proposal.bug.summary}`,
    };
  const whole = proposal.edits.filter((e): e is { file: string; content: string } => 'content' in e);
  const own = whole.find((e) => e.file === file);
  if (own) return { ok: true, content: own.content };
  if (whole.length === 1 && whole[0]!.file.startsWith(`${dir}/`))
    return { ok: true, content: whole[0]!.content };
  const named = proposal.edits.map((e) => `${e.file} (${'content' in e ? 'whole file' : 'search/replace'})`);
  return {
    ok: false,
    reason: `the model's answer edits ${named.join(', ')} instead of creating ${file} with its whole content`,
  };
}
