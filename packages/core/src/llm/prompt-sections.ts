import type {
  AttemptSummary,
  EditPolicy,
  FixRequest,
  OmittedSource,
  SourceSlice,
} from '../api/contracts/fix.js';

/**
 * A fenced block of data from the project (test output, source, diffs, names): the fence is
 * longer than any run of backticks inside it, so no text of the project can close it and pass
 * for an instruction.
 */
export function fence(text: string, lang = 'text'): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text.replace(/\n+$/, '')}\n${ticks}`;
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

const clipLine = (s: string, max = 200): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Details an analyzer kept that the prompt does not show already (the tests, the title, the evidence). */
function newDetails(request: FixRequest): Record<string, unknown> {
  const f = request.failure;
  const shown = [f.title, f.evidence, ...f.tests].join('\n');
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(f.details)) {
    if (value === undefined || value === null || value === '') continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (shown.includes(text) || /^(test|title|ancestorTitles|gtest|when)$/.test(key)) continue;
    out[key] = value;
  }
  return out;
}

/** What failed, where, in which tests: data from the run, fenced. */
export function renderFailure(request: FixRequest): string {
  const f = request.failure;
  const lines = [`kind: ${f.kind}`, `summary: ${clipLine(f.title, 300)}`];
  if (f.location)
    lines.push(
      `location: ${f.location.file}${f.location.line ? `:${f.location.line}` : ''}${f.location.symbol ? ` (in ${f.location.symbol})` : ''}`,
    );
  if (f.blocksAll) lines.push('it stops the whole suite from running');
  if (f.tests.length > 0)
    lines.push(
      `failing tests (${f.tests.length}): ${f.tests.slice(0, 10).join(', ')}${f.tests.length > 10 ? ', ...' : ''}`,
    );
  const frames = f.frames.filter((fr) => !(fr.file === f.location?.file && fr.line === f.location?.line));
  if (frames.length > 0) {
    lines.push('other project frames of the trace, innermost first:');
    for (const fr of frames.slice(0, 8))
      lines.push(`  ${fr.file}${fr.line ? `:${fr.line}` : ''}${fr.symbol ? ` in ${fr.symbol}` : ''}`);
  }
  for (const d of f.diagnostics.slice(0, 10)) {
    lines.push(
      `${d.severity}: ${d.file ?? '?'}${d.line ? `:${d.line}` : ''}${d.column ? `:${d.column}` : ''}: ${clipLine(d.message, 400)}`,
    );
    for (const n of d.notes.slice(0, 5))
      lines.push(`  note: ${n.file ? `${n.file}${n.line ? `:${n.line}` : ''}: ` : ''}${clipLine(n.message)}`);
    for (const fix of d.fixIts)
      lines.push(
        `  the toolchain suggests replacing ${fix.file}:${fix.line}:${fix.column}-${fix.endLine}:${fix.endColumn} with ${JSON.stringify(fix.replacement)}`,
      );
  }
  const details = newDetails(request);
  if (Object.keys(details).length > 0) lines.push(`details: ${clipLine(JSON.stringify(details), 600)}`);
  // the one thing only the user knows: what they meant to change, so a fix keeps that intent
  if (request.changeDescription?.trim())
    lines.push(
      `the user's description of the change that made it fail: ${clipLine(request.changeDescription.trim(), 1200)}`,
    );
  return fence(lines.join('\n'));
}

export function renderEvidence(request: FixRequest): string {
  return fence(request.failure.evidence || '(no output)');
}

/** The files that may be edited, each with its reasons once. */
export function renderScope(request: FixRequest): string {
  const { entries, excluded } = request.scope;
  if (entries.length === 0)
    return 'The scope is empty: no file may be edited. Answer `product-bug` or `unfixable`.';
  const lines = entries.map((e) => {
    const reasons = [...new Set(e.reasons.map((r) => r.trim()))];
    const shown = reasons.slice(0, 3).map((r) => clipLine(r, 160));
    const more = reasons.length > 3 ? ` (+${reasons.length - 3} more)` : '';
    const symbols = e.symbols.length > 0 ? `; ${e.symbols.slice(0, 8).join(', ')}` : '';
    return `${e.file} (${e.role}${symbols}): ${shown.join('; ')}${more}`;
  });
  if (excluded.length > 0) {
    lines.push('', 'reached by the analysis but not editable:');
    for (const x of excluded.slice(0, 10)) lines.push(`${x.file}: ${x.reason}`);
  }
  return fence(lines.join('\n'));
}

/**
 * The source slices, each under its file and lines with the lines the failing test went through
 * named; why each file is here is said once, in the scope. Then the ranked code the source budget
 * left out, with the reason, so a fixer knows what it has not seen.
 */
export function renderSources(
  sources: readonly SourceSlice[],
  readsFiles: boolean,
  omitted: readonly OmittedSource[] = [],
  tokenBudget?: number,
): string {
  const left = renderOmitted(omitted, readsFiles, tokenBudget);
  if (sources.length === 0)
    return [
      readsFiles ? 'No source was included; read the files of the scope.' : 'No source was included.',
      ...(left ? [left] : []),
    ].join('\n\n');
  const shown = sources.map((s) => {
    const ext = s.file.split('.').pop() ?? '';
    const marked = s.marked?.length
      ? `\n\nThe failing test went through line${s.marked.length > 1 ? 's' : ''} ${s.marked.join(', ')} when it failed.`
      : '';
    return `### ${s.file} (lines ${s.startLine}-${s.endLine})${marked}\n\n${fence(s.text, LANG_BY_EXT[ext] ?? 'text')}`;
  });
  return [...shown, ...(left ? [left] : [])].join('\n\n');
}

function renderOmitted(omitted: readonly OmittedSource[], readsFiles: boolean, tokenBudget?: number): string {
  if (omitted.length === 0) return '';
  const budget = tokenBudget ? ` (${tokenBudget} tokens)` : '';
  const lines = omitted.map((o) => {
    const where = o.startLine ? `:${o.startLine}-${o.endLine ?? o.startLine}` : '';
    return `${o.file}${where}${o.symbol ? ` ${o.symbol}` : ''}: ${clipLine(o.reason, 160)}`;
  });
  const read = readsFiles ? ' Read them if the code above does not explain the failure.' : '';
  return `Left out of the source above by its budget${budget}, likeliest first:${read}\n\n${fence(lines.join('\n'))}`;
}

const EDITABLE: Record<EditPolicy['editable'], string> = {
  source: 'You may edit only the code under test, not test files: the tests are the specification.',
  tests:
    'You may edit only test files, not the code under test. If the code under test is wrong, answer `product-bug`.',
  both: 'You may edit the code under test and the tests (prefer the code under test).',
};

export function renderPolicy(policy: EditPolicy): string {
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

/** What happened to a proposal, in words a model cannot misread as "it was applied" when it was not. */
export function verdictWords(verdict: string): string {
  switch (verdict) {
    case 'failed-validation':
      return 'applied, and the failing tests were re-run: they still fail';
    case 'refused':
      return 'refused before it was applied';
    case 'repeated-patch':
      return 'not applied: the same patch was tried before';
    case 'fixer-error':
      return 'no usable answer: nothing was applied';
    case 'unfixable':
      return 'answered as unfixable';
    case 'product-bug':
      return 'answered as a product bug';
    default:
      return verdict;
  }
}

export function renderHistory(history: readonly AttemptSummary[]): string {
  if (history.length === 0) return 'None: this is the first attempt.';
  return history
    .map((h) => {
      const parts = [`### Attempt ${h.attempt} (${h.fixer}): ${verdictWords(h.verdict)}`];
      if (h.rationale) parts.push(`Its rationale:\n\n${fence(clipLine(h.rationale, 1500))}`);
      if (h.diff)
        parts.push(
          `Its patch:\n\n${fence(h.diff.length > 6000 ? `${h.diff.slice(0, 6000)}\n[... diff truncated ...]` : h.diff, 'diff')}`,
        );
      parts.push(`What happened:\n\n${fence(h.outcome)}`);
      return parts.join('\n\n');
    })
    .join('\n\n');
}
