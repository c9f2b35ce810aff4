import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Analyzer } from '../../../src/api/plugin.js';
import { scriptAnalyzer } from '../../../src/testing/script-runner.js';
import { scriptedFixer } from '../../../src/testing/scripted-fixer.js';
import { FIX_ADD, gate, project, sandboxes } from './support.js';

const { box } = sandboxes();

describe('a scope that names private files', () => {
  it('sends none of their bytes to a fixer and lets none be edited, and the report says why', async () => {
    const b = await box();
    const TOKEN = 'plantedNpmrcToken0123456789';
    await writeFile(join(b.root, '.npmrc'), `//registry.npmjs.org/:_authToken=${TOKEN}\n`);
    await mkdir(join(b.root, 'deploy'));
    await writeFile(join(b.root, 'deploy', 'prod.tfvars'), `db = "${TOKEN}-tf"\n`);
    const inner = scriptAnalyzer();
    // An analyzer whose scope reaches the credential files the code under test reads.
    const analyzer: Analyzer = {
      ...inner,
      async scope(failure, info) {
        const scope = await inner.scope(failure, info);
        const extra = ['.npmrc', 'deploy/prod.tfvars'].map((file) => ({
          file,
          role: 'config' as const,
          reasons: ['read by the code under test'],
        }));
        return { ...scope, entries: [...extra, ...scope.entries] };
      },
    };
    const fixer = scriptedFixer([
      {
        verdict: 'edits',
        rationale: 'x',
        edits: [{ file: '.npmrc', content: 'registry=https://evil.example/\n' }],
      },
      FIX_ADD,
    ]);
    const report = await gate(b, [fixer], { projects: [project(b.root, { analyzer })] });
    const request = fixer.requests[0]!;
    expect(request.sources.map((s) => s.file)).not.toContain('.npmrc');
    expect(request.scope.entries.map((e) => e.file)).not.toContain('.npmrc');
    expect(JSON.stringify(fixer.requests)).not.toContain(TOKEN);
    const failure = report.projects[0]!.failures[0]!;
    expect(failure.outcome).toBe('healed');
    expect(failure.attempts[0]).toMatchObject({ verdict: expect.stringMatching(/refused|out-of-scope/) });
    expect(await readFile(join(b.root, '.npmrc'), 'utf8')).toContain(TOKEN);
    expect(failure.scope!.excluded).toEqual(
      expect.arrayContaining([
        { file: '.npmrc', reason: expect.stringMatching(/private file/) },
        { file: 'deploy/prod.tfvars', reason: expect.stringMatching(/private file/) },
      ]),
    );
  });
});
