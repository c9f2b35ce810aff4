import { mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { portableReport, portableText, relativeTo, rootSpellings } from './portable.js';
import { repoPath } from './repo-path.js';
import { sampleReport } from './sample-report.test-support.js';

describe('portable paths', () => {
  it('makes the root and what is under it repository-relative, and leaves a sibling folder alone', () => {
    const map = relativeTo('/repo');
    expect(map('/repo/web/a.test.js:3:1')).toBe('web/a.test.js:3:1');
    expect(map('cd /repo && make')).toBe('cd . && make');
    expect(map('/repo-2/x.js and /repository/y.js and /repo.bak')).toBe(
      '/repo-2/x.js and /repository/y.js and /repo.bak',
    );
    expect(map('at /repo')).toBe('at .');
  });

  it('takes out the real path a symbolic link leads to as well', async () => {
    const base = await mkdtemp(join(tmpdir(), 'suture-portable-'));
    try {
      const link = join(base, 'link');
      await symlink(base, link);
      const spellings = rootSpellings(link);
      expect(spellings).toEqual([link, await realpath(base)]);
      const text = portableText(spellings)(`${await realpath(base)}/a.py and ${link}/b.py`);
      expect(text).toBe('a.py and b.py');
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('gives a report with no mention of the root, every other value kept', () => {
    const report = sampleReport();
    const portable = portableReport(report, ['/repo']);
    expect(JSON.stringify(portable)).not.toContain('/repo');
    expect(portable.root).toBe('.');
    expect(portable.runDir).toBe('.suture/runs/20261122-120000-abcd');
    expect({ ...portable, root: report.root, runDir: report.runDir }).toEqual(report);
  });

  it('names a project file from the repository root, whichever way the project root is given', () => {
    expect(repoPath('/repo', '/repo/apps/web', '__tests__/index.test.js')).toBe(
      'apps/web/__tests__/index.test.js',
    );
    expect(repoPath('.', 'apps/web', '__tests__/index.test.js')).toBe('apps/web/__tests__/index.test.js');
    expect(repoPath('/repo', '/repo', 'test_a.py')).toBe('test_a.py');
    expect(repoPath('/repo', '/repo/py', '<frozen os>')).toBe('<frozen os>');
  });
});
