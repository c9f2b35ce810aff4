import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Diagnostic, Edit, FixIt, FixProposalInput, FixRequest } from '@suture/core';
import { applyFixIts, diffEdit } from '../edits.js';

/** How `@suture/runner-cargo` marks a suggestion rustc itself calls safe to apply unreviewed. */
const MACHINE_APPLICABLE = /\(rustc: MachineApplicable\)$/;
const NEEDS_LLM = 'needs an LLM fixer (configure @suture/llm-claude-cli or @suture/llm-openai)';

/** A fix-it rustc marked `MachineApplicable`: the only kind this fixer applies. */
export function machineApplicable(f: FixIt): boolean {
  return MACHINE_APPLICABLE.test(f.description ?? '');
}

/** The suggestions rustc made but did not mark safe (`MaybeIncorrect`, `HasPlaceholders`), as the runner notes them. */
function candidates(d: Diagnostic): string[] {
  return d.notes.filter((n) => /\(rustc: (?!MachineApplicable)\w+/.test(n.message)).map((n) => n.message);
}

/**
 * rustc's own fixes for a Rust build failure: every error's `MachineApplicable` suggestions, in
 * one proposal, when each error of the failure has one (a build is green only when all are in).
 * An error with none, or with only suggestions rustc is unsure of (a similar name, a method call
 * it guesses), makes the failure the next fixer's, with the candidates rustc offered.
 * Undefined when the failure holds no rustc error.
 */
export async function rustProposal(request: FixRequest): Promise<FixProposalInput | undefined> {
  const errors = request.failure.diagnostics.filter((d) => d.source === 'rustc' && d.severity === 'error');
  if (errors.length === 0) return undefined;
  const without = errors.filter((d) => !d.fixIts.some(machineApplicable));
  if (without.length > 0) {
    const offered = [...new Set(without.flatMap(candidates))];
    const first = without[0]!;
    return {
      verdict: 'unfixable',
      diagnosis: `rustc gives no machine-applicable fix for ${first.file ?? ''}:${first.line ?? ''}: ${first.message}${without.length > 1 ? ` (and ${without.length - 1} more)` : ''}${offered.length > 0 ? `; it suggests, without marking them safe: ${offered.slice(0, 4).join('; ')}` : ''}; ${NEEDS_LLM}`,
      usage: { calls: 0, costUsd: 0 },
    };
  }
  const byFile = new Map<string, FixIt[]>();
  for (const f of errors.flatMap((d) => d.fixIts.filter(machineApplicable))) {
    const list = byFile.get(f.file) ?? [];
    if (!list.some((x) => JSON.stringify(x) === JSON.stringify(f))) list.push(f);
    byFile.set(f.file, list);
  }
  const edits: Edit[] = [];
  for (const [file, fixIts] of byFile) {
    const before = await readFile(join(request.project.root, file), 'utf8').catch(() => undefined);
    if (before === undefined) continue;
    const edit = diffEdit(file, before, applyFixIts(before, fixIts));
    if (edit) edits.push(edit);
  }
  if (edits.length === 0) return undefined;
  const applied = errors.map(
    (d) =>
      `${d.code ? `${d.code} ` : ''}${d.message} (${d.fixIts
        .filter(machineApplicable)
        .map((f) => f.description!.replace(MACHINE_APPLICABLE, '').trim())
        .join(', ')})`,
  );
  return {
    verdict: 'edits',
    edits,
    rationale: `applied rustc's machine-applicable suggestions: ${applied.slice(0, 3).join('; ')}`,
    usage: { calls: 0, costUsd: 0 },
  };
}
