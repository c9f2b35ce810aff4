import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The real claude binary of the devDependency @anthropic-ai/claude-code. */
export function claudeBinary(): string {
  const pkgFile = require.resolve('@anthropic-ai/claude-code/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { bin: { claude: string } };
  return join(dirname(pkgFile), pkg.bin.claude);
}

export const TEST_KEY = 'sk-ant-test-0123456789abcdef';
/** A model claude knows the price of, so the results carry a cost. */
export const TEST_MODEL = 'claude-sonnet-4-6';

const homes: string[] = [];

/**
 * An environment that keeps claude away from the user's login, settings and sessions and from the
 * network: a fresh HOME and config folder, the mock as the API, no updater, no telemetry, and
 * none of the user's other credentials.
 */
export function isolatedEnv(
  baseURL: string,
  over: Record<string, string | null> = {},
): Record<string, string | null> {
  const home = mkdtempSync(join(tmpdir(), 'suture-claude-home-'));
  homes.push(home);
  mkdirSync(join(home, '.claude'), { recursive: true });
  return {
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    ANTHROPIC_BASE_URL: baseURL,
    ANTHROPIC_API_KEY: TEST_KEY,
    ANTHROPIC_AUTH_TOKEN: null,
    CLAUDE_CODE_OAUTH_TOKEN: null,
    CLAUDE_CODE_USE_BEDROCK: null,
    CLAUDE_CODE_USE_VERTEX: null,
    ANTHROPIC_MODEL: null,
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...over,
  };
}

export function removeHomes(): void {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
}
