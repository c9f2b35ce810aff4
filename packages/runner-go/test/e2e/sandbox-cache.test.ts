import { execFileSync } from 'node:child_process';
import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import go from '../../src/index.js';
import { cleanup, gate, repoWith } from './gate-support.js';

afterAll(cleanup);

const userCache = (): string => execFileSync('go', ['env', 'GOCACHE'], { encoding: 'utf8' }).trim();

describe("Go's build cache in the sandbox", () => {
  it("names the user's GOCACHE and GOMODCACHE as paths the sandbox keeps visible", async () => {
    const paths = await go().sandboxPaths!('/');
    expect(paths).toContain(userCache());
    expect(paths).toContain(execFileSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).trim());
    expect(await go({ shareBuildCache: false }).sandboxPaths!('/')).toEqual([]);
  });

  it('validates a heal in the sandbox with the shared cache, which patched code cannot write', async () => {
    const { repo, root } = await repoWith('calc');
    const poison = `suture-poison-${randomUUID()}`;
    const source = await readFile(join(root, 'calc.go'), 'utf8');
    // the fix also tries to plant a file in the build cache the user's later builds read
    const patched = source
      .replace('package calc\n', 'package calc\n\nimport (\n\t"os"\n\t"path/filepath"\n)\n')
      .replace(
        'return a - b',
        `_ = os.WriteFile(filepath.Join(os.Getenv("GOCACHE"), "${poison}"), []byte("x"), 0o644)\n\treturn a + b`,
      );
    const fixer = scriptedFixer(
      Array(2).fill({ verdict: 'edits', rationale: 'fix', edits: [{ file: 'calc.go', content: patched }] }),
    );
    const report = await gate({
      repo,
      root,
      mode: 'check',
      fixers: [fixer],
      heal: { maxAttempts: 1, flakyReruns: 0 },
      sandbox: 'auto',
    });
    const failure = report.projects[0]!.failures.find((f) => f.failure.tests.includes('.::TestAdd'))!;
    const isolation = JSON.stringify(report.isolation ?? {});
    // on a machine without namespaces the sandbox is the environment alone: nothing to check there
    if (!/namespace|overlay|sandbox/i.test(isolation) || /"sandbox":"off"/.test(isolation)) return;
    expect(failure.outcome, failure.attempts.map((a) => a.reason).join('\n')).toBe('healed');
    await expect(access(join(userCache(), poison))).rejects.toThrow();
  });
});
