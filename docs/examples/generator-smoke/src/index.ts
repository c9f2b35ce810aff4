import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import {
  API_VERSION,
  defineGenerator,
  z,
  type GeneratedFile,
  type GeneratedTest,
  type Generator as TestGenerator,
} from '@suture/core';

const OptionsSchema = z
  .object({
    /** Folder of the generated tests, relative to the project root. */
    testDir: z.string().min(1).default('tests'),
  })
  .strict();
export type SmokeOptions = z.input<typeof OptionsSchema>;

/** Names a module exports as functions: `export function add(`, `export const add = (`. */
export function exportedFunctions(source: string): string[] {
  const found = [
    ...source.matchAll(/^export\s+(?:async\s+)?function\s*\*?\s*(\w+)/gm),
    ...source.matchAll(/^export\s+const\s+(\w+)\s*=\s*(?:async\s*)?(?:\([^)]*\)|\w+)\s*=>/gm),
  ].map((m) => m[1]!);
  return [...new Set(found)].sort();
}

function smokeTest(testFile: string, module: string, names: readonly string[]): string {
  const from = posix.relative(posix.dirname(testFile), module);
  return [
    "import assert from 'node:assert/strict';",
    `import * as mod from '${from.startsWith('.') ? from : `./${from}`}';`,
    '',
    `for (const name of ${JSON.stringify(names)}) {`,
    "  assert.equal(typeof mod[name], 'function', `${name} is exported as a function`);",
    '}',
    '',
  ].join('\n');
}

/**
 * Writes one smoke test per ES module it is given: the module loads, and every function it
 * exports is a function. The generator only returns files; suture writes them, runs them with
 * the project's runner and keeps the ones that pass.
 */
export default function smoke(options: SmokeOptions = {}): TestGenerator {
  const { testDir } = OptionsSchema.parse(options);
  return defineGenerator({
    name: 'suture-generator-smoke',
    apiVersion: API_VERSION,
    language: 'javascript',
    async generate(request) {
      const files: GeneratedFile[] = [];
      const tests: GeneratedTest[] = [];
      for (const module of request.inputs.filter((f) => /\.m?js$/.test(f))) {
        const file = posix.join(testDir, `${posix.basename(module).replace(/\.m?js$/, '')}.smoke.test.mjs`);
        if (request.existingTests.includes(file)) continue;
        const names = exportedFunctions(await readFile(join(request.project.root, module), 'utf8'));
        if (names.length === 0) continue;
        files.push({ file, content: smokeTest(file, module, names) });
        tests.push({ file, test: file, covers: `${module}: ${names.join(', ')}` });
      }
      return {
        files,
        plan: { summary: `${files.length} smoke tests for ${request.inputs.length} modules`, tests },
        usage: { calls: 0, costUsd: 0 },
      };
    },
  });
}
