import { access } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/**
 * The gate tests load this fixer by name from a config file, that is from dist/: without a build
 * they would fail far from the cause, so say so up front. (`nx run @suture/llm-openai:test`
 * builds first; nx restores cached builds without touching mtimes, so staleness is not checked.)
 */
export default async function checkBuild(): Promise<void> {
  await access(entry).catch(() => {
    throw new Error(`${entry} is missing: build first with \`npx nx run @suture/llm-openai:build\``);
  });
}
