// The layers of @suture/core's sources and what each may import, lowest first. ESLint fences them
// (eslint.config.mjs) and docs/architecture.md draws them; a test keeps the page and this table the
// same. Test files and test support may reach across layers.

/** @type {ReadonlyArray<{ layer: string, holds: string, imports: readonly string[] }>} */
export const CORE_LAYERS = [
  { layer: 'text', holds: 'string helpers: globs, edit distance, shell quoting, durations', imports: [] },
  {
    layer: 'api',
    holds: 'the contracts (zod schemas), plugin interfaces, define*, errors',
    imports: ['text'],
  },
  {
    layer: 'safety',
    holds: 'journal, lock, workspace views, sandbox, processes, redaction, tree guard',
    imports: ['api', 'text'],
  },
  {
    layer: 'analysis',
    holds: 'the analysis kit: tree-sitter helpers, graph walks, grouping, test-model kit',
    imports: ['api', 'safety', 'text'],
  },
  {
    layer: 'llm',
    holds: 'the LLM fixer base: prompts, answers, pricing, cassettes, call guards',
    imports: ['api', 'safety', 'text'],
  },
  {
    layer: 'report',
    holds: 'report building: totals, the finished report, file summaries, merging',
    imports: ['api', 'text'],
  },
  {
    layer: 'engine',
    holds: 'the gate: rounds, heal loop, validation, integrity guard, generation',
    imports: ['api', 'analysis', 'report', 'safety', 'text'],
  },
  {
    layer: 'reporters',
    holds: 'the built-in renderers: console, json, junit, markdown, patch, bugs',
    imports: ['api', 'report', 'safety', 'text'],
  },
  {
    layer: 'host',
    holds: 'config, plugin loading and wrapping, gate options, the agent service',
    imports: ['api', 'analysis', 'engine', 'llm', 'report', 'reporters', 'safety', 'text'],
  },
  {
    layer: 'testing',
    holds: 'the conformance kits for plugin authors',
    imports: ['analysis', 'api', 'engine', 'host', 'llm', 'report', 'reporters', 'safety', 'text'],
  },
];

const CORE = 'packages/core/src';

/** `import-x/no-restricted-paths` zones: each layer is kept from the layers it may not import. */
export function layerZones() {
  const names = CORE_LAYERS.map((l) => l.layer);
  return CORE_LAYERS.flatMap(({ layer, imports }) =>
    names
      .filter((other) => other !== layer && !imports.includes(other))
      .map((other) => ({
        target: `./${CORE}/${layer}`,
        from: `./${CORE}/${other}`,
        message: `core's ${layer} layer may not import ${other} (see docs/architecture.md)`,
      })),
  );
}
