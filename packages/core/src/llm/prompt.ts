import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FailureKind } from '../api/contracts/failure.js';
import type { AttemptSummary, EditPolicy, FixRequest, SourceSlice } from '../api/contracts/fix.js';
import type { Redactor } from '../safety/redact.js';

/** build: the project does not compile, import or collect; logic: a test runs and fails. */
export type PromptKind = 'build' | 'logic';

const BUILD_KINDS: readonly FailureKind[] = ['build', 'collection', 'syntax', 'import'];

export function promptKindFor(kind: FailureKind): PromptKind {
  return BUILD_KINDS.includes(kind) ? 'build' : 'logic';
}

/** The placeholders a template may use, each `{{name}}`. */
export const PROMPT_PLACEHOLDERS = [
  'language',
  'project',
  'failure',
  'evidence',
  'scope',
  'sources',
  'policy',
  'history',
  'attempt',
  'maxAttempts',
  'answer',
] as const;
type Placeholder = (typeof PROMPT_PLACEHOLDERS)[number];

export type PromptTemplates = Record<PromptKind, string>;

/** The system prompt of every LLM fixer: the role and the rules that never change. */
export const FIXER_SYSTEM_PROMPT = [
  "You are the fixer of suture, a self-healing test gate. suture ran a project's real test suite,",
  'found a failure, and asks you for a patch. You never edit files yourself: you answer with a',
  'proposal, and suture validates it against the scope and the policy, applies it, and re-runs the',
  'failing tests. A patch that does not make them pass is rolled back and you may be asked again,',
  'with what happened.',
  'Answer only with edits to files in the scope. Be precise and minimal; never weaken a test to make',
  'it pass.',
].join('\n');

const FILE_ACCESS = {
  read: 'You may read and search files of the project to understand the failure; you cannot write them.',
  none: 'You cannot open files: work from the evidence and the source in the message.',
};

const DEFAULT_ANSWER =
  'Answer with the structured proposal you were given the schema of (each field of the schema says what it holds). Leave unused fields null and `edits` empty unless the verdict is `edits`.';

const PLACEHOLDER = /\{\{\s*([A-Za-z]+)\s*\}\}/g;

function checkTemplate(text: string, source: string): string {
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (!(PROMPT_PLACEHOLDERS as readonly string[]).includes(m[1]!)) {
      throw new Error(
        `prompt template ${source} uses {{${m[1]}}}, which is not a placeholder; use one of ${PROMPT_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}`,
      );
    }
  }
  if (!/\{\{\s*(evidence|failure)\s*\}\}/.test(text)) {
    throw new Error(
      `prompt template ${source} has neither {{failure}} nor {{evidence}}: the model would not see what failed`,
    );
  }
  return text;
}

const BUILTIN_DIR = fileURLToPath(new URL('../../prompts/', import.meta.url));

/**
 * The prompt templates: the ones shipped in @suture/core, or files named by a fixer's `prompts`
 * option (paths relative to `baseDir`, the config file's folder). Read and checked at once, so a
 * bad path or placeholder is a config error, not a failed attempt later.
 */
export function loadPromptTemplates(
  overrides: Partial<Record<PromptKind, string>> = {},
  baseDir = process.cwd(),
): PromptTemplates {
  const read = (kind: PromptKind): string => {
    const override = overrides[kind];
    const file = override
      ? isAbsolute(override)
        ? override
        : resolve(baseDir, override)
      : resolve(BUILTIN_DIR, `${kind}.md`);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new Error(
        `cannot read the ${kind} prompt template ${file}${override ? ` (option prompts.${kind}; paths are relative to the config file)` : ''}: ${(error as Error).message}`,
      );
    }
    return checkTemplate(text, file);
  };
  return { build: read('build'), logic: read('logic') };
}

function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text.replace(/\n$/, '')}\n${ticks}`;
}

const LANG_BY_EXT: Record<string, string> = {
  py: 'python',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  js: 'js',
  mjs: 'js',
  cjs: 'js',
  jsx: 'jsx',
  ts: 'ts',
  tsx: 'tsx',
  mts: 'ts',
  cts: 'ts',
  json: 'json',
};

function renderFailure(request: FixRequest): string {
  const f = request.failure;
  const lines = [`- kind: ${f.kind}`, `- summary: ${f.title}`];
  if (f.location)
    lines.push(
      `- location: ${f.location.file}${f.location.line ? `:${f.location.line}` : ''}${f.location.symbol ? ` (in ${f.location.symbol})` : ''}`,
    );
  if (f.blocksAll) lines.push('- it stops the whole suite from running');
  if (f.tests.length > 0) {
    const shown = f.tests
      .slice(0, 20)
      .map((t) => `\`${t}\``)
      .join(', ');
    lines.push(`- failing tests (${f.tests.length}): ${shown}${f.tests.length > 20 ? ', ...' : ''}`);
  }
  if (f.frames.length > 0) {
    lines.push('- project frames of the trace, innermost first:');
    for (const fr of f.frames.slice(0, 8))
      lines.push(`  - ${fr.file}${fr.line ? `:${fr.line}` : ''}${fr.symbol ? ` in ${fr.symbol}` : ''}`);
  }
  for (const d of f.diagnostics.slice(0, 10)) {
    lines.push(
      `- ${d.severity}: ${d.file ?? '?'}${d.line ? `:${d.line}` : ''}${d.column ? `:${d.column}` : ''}: ${d.message}`,
    );
    for (const n of d.notes.slice(0, 5))
      lines.push(`  - note: ${n.file ? `${n.file}${n.line ? `:${n.line}` : ''}: ` : ''}${n.message}`);
    for (const fix of d.fixIts)
      lines.push(
        `  - the toolchain suggests replacing ${fix.file}:${fix.line}:${fix.column}-${fix.endLine}:${fix.endColumn} with ${JSON.stringify(fix.replacement)}`,
      );
  }
  const details = Object.entries(f.details).filter(([, v]) => v !== undefined && v !== null && v !== '');
  if (details.length > 0)
    lines.push(`- details: ${JSON.stringify(Object.fromEntries(details)).slice(0, 1200)}`);
  return lines.join('\n');
}

function renderScope(request: FixRequest): string {
  const { entries, excluded } = request.scope;
  if (entries.length === 0)
    return 'The scope is empty: no file may be edited. Answer `product-bug` or `unfixable`.';
  const lines = entries.map(
    (e) =>
      `- \`${e.file}\` (${e.role}${e.symbols.length > 0 ? `; ${e.symbols.join(', ')}` : ''}): ${e.reasons.join('; ')}`,
  );
  if (excluded.length > 0) {
    lines.push('', 'Reached by the analysis but not editable:');
    for (const x of excluded.slice(0, 20)) lines.push(`- \`${x.file}\`: ${x.reason}`);
  }
  return lines.join('\n');
}

function renderSources(sources: readonly SourceSlice[]): string {
  if (sources.length === 0) return 'No source was included; read the files of the scope yourself if you can.';
  return sources
    .map((s) => {
      const ext = s.file.split('.').pop() ?? '';
      return `### ${s.file} (lines ${s.startLine}-${s.endLine}): ${s.reason}\n\n${fence(s.text, LANG_BY_EXT[ext] ?? '')}`;
    })
    .join('\n\n');
}

const EDITABLE: Record<EditPolicy['editable'], string> = {
  source: 'You may edit only the code under test, not test files: the tests are the specification.',
  tests:
    'You may edit only test files, not the code under test. If the code under test is wrong, answer `product-bug`.',
  both: 'You may edit the code under test and the tests (prefer the code under test).',
};

function renderPolicy(policy: EditPolicy): string {
  const lines = [
    `- ${EDITABLE[policy.editable]}`,
    `- At most ${policy.maxFilesPerAttempt} file(s) per patch.`,
  ];
  lines.push(
    policy.allowNewFiles
      ? '- New files may be created inside the scope.'
      : '- No new files: edit existing files only.',
  );
  if (policy.deniedPaths.length > 0)
    lines.push(`- Never edit: ${policy.deniedPaths.map((p) => `\`${p}\``).join(', ')}.`);
  if (!(policy.allowedPaths.length === 1 && policy.allowedPaths[0] === '**'))
    lines.push(`- Only paths matching: ${policy.allowedPaths.map((p) => `\`${p}\``).join(', ')}.`);
  lines.push(
    policy.allowTestWeakening
      ? '- Weakening tests is allowed by the configuration.'
      : '- Patches that weaken tests (remove assertions, skip tests, swallow exceptions) are refused.',
  );
  return lines.join('\n');
}

function renderHistory(history: readonly AttemptSummary[]): string {
  if (history.length === 0) return 'None: this is the first attempt.';
  return history
    .map((h) => {
      const parts = [`### Attempt ${h.attempt} (${h.fixer}): ${h.verdict}`];
      if (h.rationale) parts.push(`Rationale: ${h.rationale}`);
      if (h.diff)
        parts.push(
          `Patch:\n\n${fence(h.diff.length > 6000 ? `${h.diff.slice(0, 6000)}\n[... diff truncated ...]` : h.diff, 'diff')}`,
        );
      parts.push(`What happened: ${h.outcome}`);
      return parts.join('\n\n');
    })
    .join('\n\n');
}

export interface RenderOptions {
  templates: PromptTemplates;
  /** How to hand the answer back, for this transport (tool call, structured output). */
  answer?: string;
  /** Applied to the whole prompt before it leaves the process. */
  redact?: Redactor;
  /** The model has read-only tools over the project (Claude Code); otherwise it sees only the prompt. */
  readsFiles?: boolean;
}

export interface RenderedPrompt {
  kind: PromptKind;
  system: string;
  user: string;
}

/** The prompt for one attempt: the template for the failure's kind, filled from the request. */
export function renderFixPrompt(request: FixRequest, options: RenderOptions): RenderedPrompt {
  const kind = promptKindFor(request.failure.kind);
  const values: Record<Placeholder, () => string> = {
    language: () => request.project.language ?? 'software',
    project: () =>
      `\`${request.project.name}\`${request.project.language ? ` (${request.project.language})` : ''}; paths below are relative to the project root.`,
    failure: () => renderFailure(request),
    evidence: () => request.failure.evidence.replace(/```/g, "'''"),
    scope: () => renderScope(request),
    sources: () => renderSources(request.sources),
    policy: () => renderPolicy(request.policy),
    history: () => renderHistory(request.history),
    attempt: () => String(request.attempt),
    maxAttempts: () => String(request.maxAttempts),
    answer: () => options.answer ?? DEFAULT_ANSWER,
  };
  const user = options.templates[kind].replace(PLACEHOLDER, (whole, name: string) =>
    name in values ? values[name as Placeholder]() : whole,
  );
  const redact = options.redact ?? ((s: string) => s);
  const system = `${FIXER_SYSTEM_PROMPT}\n${options.readsFiles ? FILE_ACCESS.read : FILE_ACCESS.none}`;
  return { kind, system: redact(system), user: redact(user) };
}
