import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Edit, FixIt, FixProposalInput, FixRequest } from '@suture/core';
import type { ComputedFixIts } from './cpp/rules.js';
import { applyFixIts, diffEdit } from './edits.js';

/**
 * A compiler's spelling fix-it towards a name reserved for the implementation (`__int32_t` for
 * `std::int32_t`, suggested by Clang when <cstdint> is missing) compiles but is never what the
 * author meant; such a fix-it is set aside and the error treated as one without a hint.
 */
export function trusted(f: FixIt): boolean {
  return !/^(?:__|_[A-Z])\w*$/.test(f.replacement);
}

const keyOf = (f: FixIt): string =>
  `${f.file}:${f.line}:${f.column}:${f.endLine}:${f.endColumn}:${f.replacement}`;

/**
 * Applies the toolchain's own fix-its (GCC/Clang `fix-it:` lines) attached to the failure's
 * diagnostics, together with the ones computed for errors the compiler gave none for: one
 * proposal, because a build is green only when all of them are in.
 */
export async function fixItProposal(
  request: FixRequest,
  computed?: ComputedFixIts,
): Promise<FixProposalInput | undefined> {
  const given: FixIt[] = request.failure.diagnostics.flatMap((d) => d.fixIts.filter(trusted));
  const all = [...given, ...(computed?.fixIts ?? [])];
  if (all.length === 0) return undefined;
  const byFile = new Map<string, FixIt[]>();
  for (const f of all) {
    const list = byFile.get(f.file) ?? [];
    if (!list.some((x) => keyOf(x) === keyOf(f))) list.push(f);
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
  const hinted = request.failure.diagnostics
    .filter((d) => d.fixIts.some(trusted))
    .map((d) => d.message)
    .slice(0, 3);
  const declined = [
    ...new Set(
      request.failure.diagnostics.flatMap((d) =>
        d.fixIts.filter((f) => !trusted(f)).map((f) => f.replacement),
      ),
    ),
  ];
  const parts = [
    ...(hinted.length > 0 ? [`applied the compiler's fix-it hints: ${hinted.join('; ')}`] : []),
    ...(computed?.reasons ?? []),
  ];
  const left = computed?.ambiguous.length
    ? `; left alone, more than one fix is possible: ${computed.ambiguous.join('; ')}`
    : '';
  const notTaken =
    declined.length > 0
      ? `; did not take the compiler's suggestion of ${declined.map((r) => `'${r}'`).join(', ')} (a name reserved for the implementation)`
      : '';
  return {
    verdict: 'edits',
    edits,
    rationale: `${parts.join('; ')}${left}${notTaken}`,
    usage: { calls: 0, costUsd: 0 },
  };
}
