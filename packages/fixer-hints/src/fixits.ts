import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Edit, FixIt, FixProposalInput, FixRequest } from '@suture/core';
import { applyFixIts, diffEdit } from './edits.js';

/** Applies the toolchain's own fix-its (GCC/Clang `fix-it:` lines) attached to the failure's diagnostics. */
export async function fixItProposal(request: FixRequest): Promise<FixProposalInput | undefined> {
  const all: FixIt[] = request.failure.diagnostics.flatMap((d) => d.fixIts);
  if (all.length === 0) return undefined;
  const byFile = new Map<string, FixIt[]>();
  for (const f of all) {
    const key = `${f.file}:${f.line}:${f.column}:${f.endLine}:${f.endColumn}:${f.replacement}`;
    const list = byFile.get(f.file) ?? [];
    if (!list.some((x) => `${x.file}:${x.line}:${x.column}:${x.endLine}:${x.endColumn}:${x.replacement}` === key)) list.push(f);
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
  const why = request.failure.diagnostics.filter((d) => d.fixIts.length > 0).map((d) => d.message).slice(0, 3).join('; ');
  return { verdict: 'edits', edits, rationale: `applied the compiler's fix-it hints: ${why}`, usage: { calls: 0, costUsd: 0 } };
}
