import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitFixture, removeDir, runSuture, tempRepoDir, writeAt } from '../../harness/cli.mjs';

const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYplantedCLI0088';
const SESSION = 'FwoGZXIvYXdzEplantedSESSIONcli0089';
const PASSWORD = 'pw-Lit3ral-9931';
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.splice(0).map((d) => removeDir(d)));
});

// A fixer whose first patch makes add() raise with the user's ~/.aws/credentials as its message,
// and whose second is the fix; it records every request the engine sends it.
const RECORDER = `import { appendFileSync } from 'node:fs';
const PATCHES = [
  'import os\\n\\n\\ndef add(a, b):\\n    raise RuntimeError(open(os.path.expanduser("~/.aws/credentials")).read())\\n',
  'def add(a, b):\\n    return a + b\\n',
];
export default function recorder(options) {
  let n = 0;
  return {
    name: 'recorder',
    apiVersion: 1,
    async propose(request) {
      appendFileSync(options.out, JSON.stringify(request) + '\\n');
      const content = PATCHES[Math.min(n++, PATCHES.length - 1)];
      return { verdict: 'edits', rationale: 'try', edits: [{ file: 'calc.py', content }] };
    },
  };
}
`;

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const abs = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(abs)));
    else if (e.isFile()) out.push(abs);
  }
  return out;
}

describe('credentials a patch or a test prints', () => {
  it('reach neither report.json, --json, the console nor the next fixer request', async () => {
    const base = await tempRepoDir('credential-files-');
    dirs.push(base);
    const root = join(base, 'repo');
    const home = join(base, 'home');
    const requests = join(base, 'requests.jsonl');
    await mkdir(join(home, '.aws'), { recursive: true });
    await writeFile(
      join(home, '.aws', 'credentials'),
      `[default]\naws_access_key_id = AKIAPLANTEDCLI000088\naws_secret_access_key = ${AWS_SECRET}\n\n[ci]\naws_session_token=${SESSION}\n`,
    );
    await writeAt(
      root,
      'suture.config.json',
      JSON.stringify({
        projects: [{ name: 'py', root: 'py', runner: 'pytest' }],
        fixers: [['./plugins/recorder.mjs', { out: requests }]],
        heal: { maxAttempts: 2, flakyReruns: 1 },
        // Redaction is what is under attack here: without the sandbox the patch reads the home.
        sandbox: 'off',
      }),
    );
    await writeAt(root, 'plugins/recorder.mjs', RECORDER);
    await writeAt(root, 'py/calc.py', 'def add(a, b):\n    return a - b\n');
    await writeAt(root, 'py/settings.py', `DB_PASSWORD = "${PASSWORD}"\n`);
    await writeAt(
      root,
      'py/test_calc.py',
      'import settings\nfrom calc import add\n\n\ndef test_add():\n    print("connecting with", settings.DB_PASSWORD)\n    assert add(2, 3) == 5, "login failed for " + settings.DB_PASSWORD\n',
    );
    commitFixture(root);

    const run = await runSuture(['run', '--json'], root, { env: { HOME: home } });
    const report = JSON.parse(run.stdout) as {
      projects: Array<{ failures: Array<{ outcome: string; attempts: Array<{ verdict: string }> }> }>;
    };
    const sent = await readFile(requests, 'utf8');
    // The attack happened: the first patch raised with the credentials, and a heal followed.
    expect(sent.trim().split('\n')).toHaveLength(2);
    expect(sent).toContain('aws_secret_access_key');
    expect(report.projects[0]!.failures[0]!.outcome).toBe('healed');
    const sources: Array<[string, string]> = [
      ['--json', run.stdout],
      ['console', run.stderr],
      ['fixer requests', sent],
    ];
    for (const file of await filesUnder(join(root, '.suture')))
      sources.push([file.slice(root.length + 1), await readFile(file, 'utf8')]);
    expect(sources.some(([where]) => where.endsWith('report.json'))).toBe(true);
    const leaks = sources.flatMap(([where, text]) =>
      [AWS_SECRET, SESSION, PASSWORD]
        .filter((s) => text.includes(s) || text.includes(JSON.stringify(s).slice(1, -1)))
        .map((s) => `${s} in ${where}`),
    );
    expect(leaks).toEqual([]);
  }, 180_000);
});
