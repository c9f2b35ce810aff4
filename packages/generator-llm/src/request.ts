import type { FixRequest, GenerateFeedback, GenerateRequest, SourceSlice } from '@suture/core';
import { quoteLines, ranges } from './excerpts.js';
import { FRAMEWORK, type Family } from './layout.js';

/** Everything one call is about: a target, the new file, what to show and what came before. */
export interface Brief {
  project: GenerateRequest['project'];
  family: Family;
  target: string;
  symbols: readonly string[];
  /** Project-relative path of the test file to write. */
  file: string;
  /** The generation attempt (1 first; later ones carry feedback). */
  attempt: number;
  importHint: string;
  targetText: string;
  /** In the order shown: the target (and header), callers, examples, files removed earlier. */
  sources: readonly SourceSlice[];
  feedback?: GenerateFeedback;
}

const clip = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** One line naming each source file once, with what it is, in the order they come. */
function sourcesLine(sources: readonly SourceSlice[]): string {
  const seen = new Map<string, string>();
  for (const s of sources) if (!seen.has(s.file)) seen.set(s.file, s.reason);
  return [...seen].map(([file, reason]) => `${file} (${reason})`).join(', ');
}

/**
 * The data of the request, fenced as evidence in the prompt: the template around it says what
 * to do with it, so nothing here reads as an instruction from the project.
 */
export function evidenceOf(brief: Brief): string {
  const lines = [
    `target: ${brief.target}${brief.symbols.length ? ` (${brief.symbols.join(', ')})` : ''}`,
    `new test file: ${brief.file}`,
    `framework: ${FRAMEWORK[brief.family]}`,
    `imports: ${brief.importHint}`,
    `generation attempt: ${brief.attempt}`,
  ];
  const fb = brief.feedback;
  if (fb) {
    if (fb.kept.length) lines.push(`tests kept so far (they run already): ${fb.kept.join(', ')}`);
    if (fb.removed.length) {
      lines.push('files removed from earlier attempts, and why:');
      for (const r of fb.removed.slice(0, 10))
        lines.push(`- ${r.file}: ${r.verdict}: ${clip(r.reason.replace(/\s+/g, ' '), 300)}`);
    }
    const uncovered = fb.uncovered.find((u) => u.file === brief.target)?.lines ?? [];
    if (uncovered.length)
      lines.push(
        `target lines no test runs yet (${ranges(uncovered)}):`,
        quoteLines(brief.targetText, uncovered),
      );
  }
  lines.push(`sources below: ${sourcesLine(brief.sources)}`);
  return lines.join('\n');
}

/**
 * The request an LLM fixer answers with the new file: a scope of that one file, new files
 * allowed, tests only, and the target and its context as the source. The fixer renders it with
 * the generator's template, records and replays it on its cassette, and prices it.
 */
export function fixRequestFor(brief: Brief): FixRequest {
  const id = `generate:${brief.target}${brief.symbols.length ? `::${brief.symbols.join(',')}` : ''}:${brief.attempt}`;
  const chars = brief.sources.reduce((n, s) => n + s.text.length, 0);
  return {
    project: brief.project,
    failure: {
      id,
      kind: 'assertion',
      title: `tests of ${brief.target}${brief.symbols.length ? ` (${brief.symbols.join(', ')})` : ''} to write in ${brief.file} (generation ${brief.attempt})`,
      tests: [],
      blocksAll: false,
      location: { file: brief.file },
      frames: [],
      evidence: evidenceOf(brief),
      fingerprint: id,
      repairable: true,
      diagnostics: [],
      details: {},
    },
    scope: {
      entries: [
        {
          file: brief.file,
          symbols: [],
          role: 'test',
          reasons: [`the new ${FRAMEWORK[brief.family]} file to write`],
          depth: 0,
        },
      ],
      excluded: [],
    },
    sources: [...brief.sources],
    history: [],
    policy: {
      editable: 'tests',
      allowedPaths: [brief.file],
      deniedPaths: [],
      allowTestWeakening: false,
      allowNewFiles: true,
      maxFilesPerAttempt: 1,
    },
    attempt: 1,
    maxAttempts: 1,
    tokenBudget: Math.ceil(chars / 4) + 2_000,
  };
}
