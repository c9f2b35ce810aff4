import { resolveLlmSettings, LlmOptionsSchema } from './fixer-options.js';
import type { CallSite } from './call-failure.js';
import { chatTransport, type ChatServer } from './chat-server.test-support.js';
import { llmFixer } from './llm-fixer.js';
import type { Fixer } from '../api/plugin.js';

export const TEAM_KEY = 'team-config-key-42';

/** The smallest real LLM fixer: the base around the Chat Completions transport of the test server. */
export function teamFixer(
  server: ChatServer,
  options: Record<string, unknown> = {},
  configDir = process.cwd(),
  env: NodeJS.ProcessEnv = {},
): Fixer {
  const settings = resolveLlmSettings(LlmOptionsSchema.parse({ apiKey: TEAM_KEY, ...options }), {
    configDir,
    env,
    defaults: { apiKeyEnv: 'TEAM_API_KEY', maxOutputTokens: 4000 },
  });
  const site: CallSite = {
    endpoint: server.url,
    path: '/chat/completions',
    model: settings.model ?? 'team-model',
    retries: 0,
    timeoutMs: settings.timeoutMs,
    key: settings.apiKey,
    keyFix: 'set TEAM_API_KEY to a valid key',
    selfHosted: true,
  };
  return llmFixer({
    name: '@suture/llm-team',
    settings,
    transport: chatTransport(site, TEAM_KEY),
    resume: true,
  });
}
