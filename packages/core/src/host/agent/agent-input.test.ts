import { spawn } from 'node:child_process';
import { hostname, tmpdir } from 'node:os';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HealInputSchema } from '../../api/contracts/heal.js';
import { sampleFixRequest } from '../../testing/sample-fix-request.js';
import { loadPromptTemplates, renderFixPrompt } from '../../llm/prompt.js';
import { AgentInputError, RepositoryBusyError } from './errors.js';
import { checkAllowedPaths, parseToolInput } from './input.js';
import { withRepository } from './repo-queue.js';
import { earlierAttempts, sessionRequest } from './session-plugins.js';
import { createSession, loadSession } from './session-store.js';

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});
async function temp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'suture-agent-input-'));
  temps.push(dir);
  return dir;
}

function inputError(fn: () => unknown): AgentInputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AgentInputError) return error;
    throw error;
  }
  throw new Error('expected an AgentInputError');
}

describe('tool input', () => {
  it('refuses an empty change description, naming the key and what to send', () => {
    const error = inputError(() => parseToolInput(HealInputSchema, { change_description: '   ' }));
    expect(error.key).toBe('change_description');
    expect(error.message).toMatch(/^change_description: change_description is empty: say in a sentence/);
  });

  it('names an unknown key with the valid ones, and reads null as not given', () => {
    const error = inputError(() =>
      parseToolInput(HealInputSchema, { change_description: 'x', sesion_id: 'a' }),
    );
    expect(error.message).toMatch(/unknown key "sesion_id"; valid keys are .*"session_id"/);
    const parsed = parseToolInput(HealInputSchema, {
      change_description: ' renamed ',
      session_id: null,
      tests: null,
    });
    expect(parsed).toEqual({ change_description: 'renamed' });
  });

  it('refuses allowed paths outside the repository root', () => {
    for (const glob of ['/etc/**', '../other/**', 'src/../../x', 'C:/x'])
      expect(inputError(() => checkAllowedPaths([glob], '/repo')).message).toMatch(
        /^allowed_paths: ".*" is outside the repository root \/repo; give globs relative to it/,
      );
    expect(() => checkAllowedPaths(['src/**', '**/*.py'], '/repo')).not.toThrow();
  });

  it('refuses an unknown session with the sessions there are', async () => {
    const root = await temp();
    const made = await createSession(root, 's-known');
    expect((await loadSession(root, 's-known')).id).toBe(made.id);
    await expect(loadSession(root, 's-missing')).rejects.toThrow(
      /^session_id: unknown session "s-missing" in .*: omit session_id to start a new session; the sessions here are s-known$/,
    );
  });

  it('tells an apply with an unknown session to heal again, since its patch lives only in a heal session', async () => {
    const root = await temp();
    await expect(loadSession(root, 's-gone', 'suture_apply')).rejects.toThrow(
      /^session_id: unknown session "s-gone" in .*: suture_apply needs the session_id suture_heal answered with; there is no session here \(.*\)\. Call suture_heal again for a new patch and session$/,
    );
    await createSession(root, 's-known');
    const error = await loadSession(root, 's-gone', 'suture_apply').catch((e: unknown) => e as Error);
    expect((error as Error).message).toContain('the sessions here are s-known. Call suture_heal again');
    expect((error as Error).message).not.toContain('omit session_id');
  });
});

describe('session history for the fixer', () => {
  it("puts the earlier calls first, renumbered, and the change description where the fixer's prompt shows it", () => {
    const request = sampleFixRequest();
    const earlier = {
      attempt: 1,
      fixer: 'f',
      verdict: 'failed-validation',
      outcome: '1 test(s) still failing',
    };
    const now = { ...earlier, attempt: 1, outcome: 'refused: outside the scope' };
    const merged = sessionRequest({ ...request, history: [now] }, [earlier], 'renamed total()');
    expect(merged.history.map((h) => [h.attempt, h.outcome])).toEqual([
      [1, '1 test(s) still failing'],
      [2, 'refused: outside the scope'],
    ]);
    expect(merged.changeDescription).toBe('renamed total()');
    expect(merged.failure.details).toEqual(request.failure.details);
    const { user } = renderFixPrompt(merged, { templates: loadPromptTemplates() });
    expect(user).toContain("the user's description of the change that made it fail: renamed total()");
    expect(renderFixPrompt(request, { templates: loadPromptTemplates() }).user).not.toContain(
      "the user's description",
    );
  });

  it('matches earlier attempts by fingerprint or by a test in common', () => {
    const failure = sampleFixRequest().failure;
    const summary = { attempt: 1, fixer: 'f', verdict: 'unfixable', outcome: 'no' };
    const attempts = [
      {
        call: 1,
        fingerprint: failure.fingerprint,
        tests: [],
        summary: { ...summary, outcome: 'same cause' },
      },
      {
        call: 1,
        fingerprint: 'other',
        tests: [failure.tests[0]!],
        summary: { ...summary, outcome: 'same test' },
      },
      { call: 1, fingerprint: 'other', tests: ['unrelated'], summary: { ...summary, outcome: 'unrelated' } },
    ];
    expect(earlierAttempts(attempts, failure).map((s) => s.outcome)).toEqual(['same cause', 'same test']);
  });
});

describe('one call at a time per repository', () => {
  it('queues the calls of one process in arrival order', async () => {
    const root = await temp();
    const order: string[] = [];
    let queued = '';
    const slow = withRepository(root, 'a', async () => {
      order.push('a:start');
      await new Promise((r) => setTimeout(r, 200));
      order.push('a:end');
    });
    const next = withRepository(
      root,
      'b',
      async () => {
        order.push('b');
      },
      { onQueued: (m) => (queued = m) },
    );
    await Promise.all([slow, next]);
    expect(order).toEqual(['a:start', 'a:end', 'b']);
    expect(queued).toMatch(/queued behind an earlier call/);
  });

  it("refuses a repository another live process holds, with that process's pid", async () => {
    const root = await temp();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      await mkdir(join(root, '.suture'), { recursive: true });
      await writeFile(
        join(root, '.suture', 'lock'),
        JSON.stringify({
          pid: holder.pid,
          hostname: hostname(),
          startedAt: new Date().toISOString(),
          runId: 'x',
        }),
      );
      let ran = false;
      const refused = await withRepository(root, 'c', async () => {
        ran = true;
      }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RepositoryBusyError);
      expect((refused as Error).message).toContain(`pid ${holder.pid}`);
      expect(ran).toBe(false);
    } finally {
      holder.kill();
    }
  });
});
