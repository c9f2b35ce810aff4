import {
  API_VERSION,
  type DoctorCheck,
  type Fixer,
  type FixProposalInput,
  type PluginFactoryContext,
} from '@suture/core';
import { createRedactor } from '@suture/core/llm';
import type OpenAI from 'openai';
import { createClient } from './client.js';
import { doctorChecks } from './doctor.js';
import { resolveOptions, type OpenAIOptions } from './options.js';
import { propose } from './propose.js';

export interface OpenAIFixerContext extends Partial<PluginFactoryContext> {
  /** Environment to read the key and OPENAI_BASE_URL from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The fixer over OpenAI and any OpenAI-compatible server (Ollama, vLLM, LM Studio, Azure
 * OpenAI): one strict, forced `propose_fix` function call per attempt, on Chat Completions or
 * the Responses API. Options are checked here, so a mistake is a config error at load time.
 */
export default function openai(options: OpenAIOptions = {}, context: OpenAIFixerContext = {}): Fixer {
  const env = context.env ?? process.env;
  const resolved = resolveOptions(options, { configDir: context.configDir ?? process.cwd(), env });
  // The key may come from the config file, where the gate's own redactor cannot see it.
  const secrets = resolved.apiKey && !resolved.apiKey.placeholder ? [resolved.apiKey.value] : [];
  const redact = createRedactor(env, secrets);
  let client: OpenAI | undefined;
  const unpriced = new Set<string>();
  return {
    name: '@suture/llm-openai',
    apiVersion: API_VERSION,
    propose(request, ctx): Promise<FixProposalInput> {
      return propose(request, ctx, {
        options: resolved,
        redact,
        client: () =>
          (client ??= createClient({
            baseURL: resolved.baseURL,
            apiKey: resolved.apiKey!.value,
            timeoutMs: resolved.timeoutMs,
            retries: resolved.retries,
          })),
        onUnpricedModel: (model) => {
          if (unpriced.has(model)) return;
          unpriced.add(model);
          ctx.logger.warn(
            `@suture/llm-openai: no price for the model "${model}"; its cost counts as 0 (add it to the fixer option "prices")`,
          );
        },
      });
    },
    doctor(): Promise<DoctorCheck[]> {
      return doctorChecks(resolved, redact);
    },
  };
}
