import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AttemptSummary } from '../../api/contracts/fix.js';
import { HealAnswerSchema, type HealAnswer, type HealInput } from '../../api/contracts/heal.js';
import { atomicWrite } from '../../safety/atomic.js';
import { ensureSutureDir, SUTURE_DIR } from '../../safety/suture-dir.js';
import { AgentInputError } from './errors.js';

/** One file of a proposed patch: the hash the heal saw and the bytes the patch leaves. */
export interface PatchFile {
  /** Repository-relative POSIX path. */
  file: string;
  /** sha256 of the file the heal started from; absent when the patch creates it. */
  before?: string;
  /** The content after the patch (base64); absent when the patch deletes it. */
  after?: string;
}

/** What a session remembers of an attempt, to give the fixer as history on the next call. */
export interface SessionAttempt {
  call: number;
  fingerprint: string;
  tests: string[];
  summary: AttemptSummary;
}

export interface SessionState {
  id: string;
  createdAt: string;
  calls: number;
  attempts: SessionAttempt[];
  /** Patch id -> its files, for every patch any call answered. */
  patches: Record<string, PatchFile[]>;
  /** Patch ids written by `suture_apply`. */
  applied: string[];
  /** Set while a call runs; an interrupted call leaves it for the next one to report. */
  running?: { call: number; pid: number; startedAt: string };
  interrupted?: { call: number; reason: string };
}

export function sessionsDir(root: string): string {
  return join(root, SUTURE_DIR, 'sessions');
}

export function sessionDir(root: string, id: string): string {
  return join(sessionsDir(root), id);
}

export function newSessionId(): string {
  return `s-${new Date().toISOString().slice(0, 10).replace(/-/g, '')}-${randomUUID().slice(0, 8)}`;
}

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The sessions of a repository that exist, newest last, for an error that lists them. */
async function knownSessions(root: string): Promise<string[]> {
  return (await readdir(sessionsDir(root)).catch(() => [] as string[])).sort();
}

/**
 * A session's state; an unknown id is the caller's mistake, said with the sessions there are and
 * what to do next, which depends on the tool: a heal can start a new session, an apply cannot
 * (its patch exists only in the session of the heal that proposed it).
 */
export async function loadSession(
  root: string,
  id: string,
  tool: 'suture_heal' | 'suture_apply' = 'suture_heal',
): Promise<SessionState> {
  const state = await readJson<SessionState>(join(sessionDir(root, id), 'session.json'));
  if (!state) {
    const known = await knownSessions(root);
    const here = known.length
      ? `the sessions here are ${known.slice(-5).join(', ')}`
      : 'there is no session here (a checkout or clean without .suture/ has none)';
    const next =
      tool === 'suture_apply'
        ? `suture_apply needs the session_id suture_heal answered with; ${here}. Call suture_heal again for a new patch and session`
        : `omit session_id to start a new session; ${here}`;
    throw new AgentInputError('session_id', `unknown session "${id}" in ${sessionsDir(root)}: ${next}`);
  }
  return state;
}

export async function createSession(root: string, id = newSessionId()): Promise<SessionState> {
  await ensureSutureDir(root);
  await mkdir(sessionDir(root, id), { recursive: true });
  const state: SessionState = {
    id,
    createdAt: new Date().toISOString(),
    calls: 0,
    attempts: [],
    patches: {},
    applied: [],
  };
  await saveSession(root, state);
  return state;
}

export async function saveSession(root: string, state: SessionState): Promise<void> {
  await atomicWrite(join(sessionDir(root, state.id), 'session.json'), `${JSON.stringify(state, null, 2)}\n`);
}

/** Keeps a call's request and answer next to the session state, as the call's record. */
export async function saveCall(
  root: string,
  id: string,
  call: number,
  record: { request: HealInput; answer?: HealAnswer; error?: string },
): Promise<void> {
  await atomicWrite(
    join(sessionDir(root, id), `call-${String(call).padStart(3, '0')}.json`),
    `${JSON.stringify(record, null, 2)}\n`,
  );
}

/** The answer of the session's newest call that has one. */
export async function latestAnswer(root: string, state: SessionState): Promise<HealAnswer | undefined> {
  for (let call = state.calls; call >= 1; call--) {
    const record = await readJson<{ answer?: unknown }>(
      join(sessionDir(root, state.id), `call-${String(call).padStart(3, '0')}.json`),
    );
    if (record?.answer) return HealAnswerSchema.parse(record.answer);
  }
  return undefined;
}
