import { llmFixer, type LlmTransport } from '@suture/core/llm';
import type { DoctorCheck, Fixer, PluginFactoryContext } from '@suture/core';
import { resolveOptions, type OpenAIOptions, type ResolvedOptions } from './options.js';
import { ANSWER_INSTRUCTIONS } from './request.js';

export interface OpenAIFixerContext extends Partial<PluginFactoryContext> {
  /** Environment to read the key and OPENAI_BASE_URL from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The transport loads the OpenAI SDK (some 150 modules) on its first call: a run that never asks
 * this fixer, as every green run, does not pay for it.
 */
function lazyTransport(o: ResolvedOptions): LlmTransport {
  let loaded: Promise<LlmTransport> | undefined;
  return {
    answer: ANSWER_INSTRUCTIONS,
    async send(call, ctx) {
      loaded ??= import('./transport.js').then((m) => m.openAITransport(o));
      return (await loaded).send(call, ctx);
    },
  };
}

/**
 * The fixer over OpenAI and any OpenAI-compatible server (Ollama, vLLM, LM Studio, Azure
 * OpenAI). Options are checked here, so a mistake is a config error at load time.
 */
export default function openai(options: OpenAIOptions = {}, context: OpenAIFixerContext = {}): Fixer {
  const env = context.env ?? process.env;
  const resolved = resolveOptions(options, { configDir: context.configDir ?? process.cwd(), env });
  return llmFixer({
    name: '@suture/llm-openai',
    settings: resolved,
    transport: lazyTransport(resolved),
    // A local server costs nothing unless given prices: no warning that its cost is 0.
    warnUnpriced: resolved.openAIHost,
    defaultModel: resolved.model,
    doctor: async (): Promise<DoctorCheck[]> => (await import('./doctor.js')).doctorChecks(resolved),
  });
}
