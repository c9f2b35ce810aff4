import { llmFixer, type LlmTransport } from '@suture/core/llm';
import type { DoctorCheck, Fixer, PluginFactoryContext } from '@suture/core';
import type { ApiConversation } from './api/transport.js';
import { cliTransport } from './cli/transport.js';
import { doctor } from './doctor.js';
import { DEFAULT_API_MODEL, resolveOptions, type ClaudeOptions, type ResolvedOptions } from './options.js';
import { API_ANSWER } from './prompt.js';

/** api mode loads the SDK on its first call, so cli mode never pays for it. */
function lazyApi(options: ResolvedOptions): LlmTransport<ApiConversation> {
  let loaded: Promise<LlmTransport<ApiConversation>> | undefined;
  return {
    answer: API_ANSWER,
    async send(call, ctx) {
      loaded ??= import('./api/transport.js').then((m) => m.apiTransport(options));
      return (await loaded).send(call, ctx);
    },
  };
}

/**
 * The Claude fixer: asks the installed `claude` in headless mode (or, with `mode: 'api'`, the
 * Messages API) for a patch inside the failure's scope. It never writes the project: claude gets
 * no tools, or read-only ones confined to the project (`tools: "read"`), and the answer is a
 * proposal the engine validates.
 * Options are checked here, at load, so a mistake names the config entry before the run starts.
 */
export default function claude(options: ClaudeOptions = {}, context?: PluginFactoryContext): Fixer {
  const resolved = resolveOptions(options, context?.configDir ?? process.cwd());
  const base = {
    name: '@suture/llm-claude-cli',
    settings: resolved,
    resume: resolved.resume,
    defaultModel: resolved.mode === 'api' ? DEFAULT_API_MODEL : "claude's default",
    doctor: (): Promise<DoctorCheck[]> => doctor(resolved),
  };
  return resolved.mode === 'api'
    ? llmFixer({ ...base, transport: lazyApi(resolved) })
    : llmFixer({ ...base, transport: cliTransport(resolved) });
}
