import { llmFixer } from '@suture/core/llm';
import type { DoctorCheck, Fixer, PluginFactoryContext } from '@suture/core';
import { doctorChecks } from './doctor.js';
import { resolveOptions, type OpenAIOptions } from './options.js';
import { openAITransport } from './transport.js';

export interface OpenAIFixerContext extends Partial<PluginFactoryContext> {
  /** Environment to read the key and OPENAI_BASE_URL from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
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
    transport: openAITransport(resolved),
    // A local server costs nothing unless given prices: no warning that its cost is 0.
    warnUnpriced: resolved.openAIHost,
    defaultModel: resolved.model,
    doctor: (): Promise<DoctorCheck[]> => doctorChecks(resolved),
  });
}
