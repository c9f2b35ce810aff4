import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FailureSchema, type FixProposalInput, type FixRequest } from '@suture/core';
import { validateEdits } from '@suture/core/internal';
import { silentLogger } from '@suture/core/testing';
import hints from '../src/index.js';

const temps: string[] = [];

/** A temporary copy of a fixture folder, removed by `cleanup`. */
export async function copy(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `suture-hints-${name.replace(/\W/g, '-')}-`));
  temps.push(dir);
  await cp(fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url)), dir, { recursive: true });
  return dir;
}

export async function cleanup(): Promise<void> {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** A fix request as the engine builds it, with every listed file in scope. */
export function request(
  root: string,
  language: string,
  failure: Record<string, unknown>,
  files: string[],
): FixRequest {
  const policy = {
    editable: 'both' as const,
    allowedPaths: ['**'],
    deniedPaths: [],
    allowTestWeakening: false,
    allowNewFiles: false,
    maxFilesPerAttempt: 5,
  };
  return {
    project: { name: 'p', root, language },
    failure: FailureSchema.parse({
      id: 'x',
      fingerprint: 'x',
      repairable: true,
      tests: [],
      evidence: '',
      ...failure,
    }),
    scope: {
      entries: files.map((file) => ({ file, symbols: [], role: 'source', reasons: ['test'], depth: 0 })),
      excluded: [],
    },
    sources: [],
    history: [],
    policy,
    attempt: 1,
    maxAttempts: 3,
    tokenBudget: 4000,
  };
}

export function propose(req: FixRequest): Promise<FixProposalInput> {
  return hints().propose(req, {
    signal: new AbortController().signal,
    logger: silentLogger,
    root: req.project.root,
  });
}

/** Validates a proposal as the engine does and writes its edits. */
export async function apply(root: string, req: FixRequest, proposal: FixProposalInput): Promise<void> {
  if (proposal.verdict !== 'edits') throw new Error(`expected edits, got ${JSON.stringify(proposal)}`);
  const check = await validateEdits({
    projectRoot: root,
    edits: proposal.edits,
    scope: req.scope,
    policy: req.policy,
  });
  if (!check.ok) throw new Error(check.reason);
  for (const w of check.writes) await writeFile(join(root, w.file), w.after);
}
