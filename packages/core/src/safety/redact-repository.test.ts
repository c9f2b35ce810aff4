import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from './redact.js';
import {
  parseKeyValues,
  privatePathsOf,
  repositoryRedactor,
  repositorySecretValues,
  secretValuesOf,
} from './repo-secrets.js';
import { isSecretEnvName, isSecretName } from './secret-names.js';

const dirs: string[] = [];
async function repo(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'suture-secrets-'));
  dirs.push(root);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(root, file, '..'), { recursive: true });
    await writeFile(join(root, file), text);
  }
  return root;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('secret names', () => {
  it('knows passwords, secrets, tokens, credentials and compound keys in any spelling', () => {
    for (const name of [
      'ADMIN_PASSWORD',
      'STRIPE_SECRET',
      'MY_SERVICE_CREDS',
      'aws_secret_access_key',
      'apiKey',
      'stripe_key',
      'SIGNING_KEY',
      'dbpassword',
      'clientSecret',
      'csrf_token',
      'self.password',
      'kPassword',
    ])
      expect(isSecretName(name), name).toBe(true);
  });

  it('leaves cache, sort and primary keys, token counts and keyboards alone', () => {
    for (const name of [
      'cache_key',
      'sort_key',
      'primaryKey',
      'key',
      'max_tokens',
      'KEYBOARD',
      'monkey',
      'author',
    ])
      expect(isSecretName(name), name).toBe(false);
  });

  it('treats MY_SERVICE_CREDS in the environment as secret, and configured names too', () => {
    expect(isSecretEnvName('MY_SERVICE_CREDS')).toBe(true);
    expect(isSecretEnvName('PWD')).toBe(false);
    expect(isSecretEnvName('ACME_LICENCE')).toBe(false);
    expect(isSecretEnvName('ACME_LICENCE', [/LICENCE$/])).toBe(true);
  });
});

describe('the redactor', () => {
  it('masks values tests print under a secret name', () => {
    const redact = createRedactor({});
    const out = redact(
      'ADMIN_PASSWORD=hunter2hunter\nSTRIPE_SECRET: whsec_abc123\nMY_SERVICE_CREDS=u:p@ss\nDEBUG=true',
    );
    expect(out).toBe(
      `ADMIN_PASSWORD=${REDACTED}\nSTRIPE_SECRET: ${REDACTED}\nMY_SERVICE_CREDS=${REDACTED}\nDEBUG=true`,
    );
  });

  it('masks literals assigned to secret names in source, keeping the code around them', () => {
    const redact = createRedactor({});
    const source = [
      'DB_PASSWORD = "s3cr3t-db-pass"',
      "aws_secret_access_key = 'wJalrXUtnFEMI/K7MDENG'",
      'def connect(password: str = "default-pass"):',
      '    config = {"apiKey": "abc-123-def", "cache_key": "user:1", "timeout": "30"}',
      '    os.environ["SERVICE_TOKEN"] = "tok-98765"',
      '    const kPassword = "compiled-in";',
      '    return max_tokens = "4096"',
    ].join('\n');
    expect(redact(source).split('\n')).toEqual([
      `DB_PASSWORD = "${REDACTED}"`,
      `aws_secret_access_key = '${REDACTED}'`,
      `def connect(password: str = "${REDACTED}"):`,
      `    config = {"apiKey": "${REDACTED}", "cache_key": "user:1", "timeout": "30"}`,
      `    os.environ["SERVICE_TOKEN"] = "${REDACTED}"`,
      `    const kPassword = "${REDACTED}";`,
      '    return max_tokens = "4096"',
    ]);
  });

  it('keeps placeholders and plain URLs under secret names', () => {
    const redact = createRedactor({});
    const text = 'password = "${DB_PASSWORD}"\nAUTH_URL=https://auth.example.com/login\ntoken = None';
    expect(redact(text)).toBe(text);
  });

  it('masks configured value formats', () => {
    const redact = createRedactor({}, [], { patterns: [/acme_[a-z0-9]{12}/] });
    expect(redact('licence acme_0123456789ab ok')).toBe(`licence ${REDACTED} ok`);
  });
});

describe('the repository redactor', () => {
  it("masks the values of the repository's and the projects' .env files, not their example", async () => {
    const root = await repo({
      '.env':
        'ADMIN_PASSWORD=correct-horse-battery\nDEBUG=true\nPORT=8080\nexport SESSION="Zx81Q7ab93LkPq2"\n',
      'app/.env.local': "STRIPE_SECRET='whsec_local_only_77'\n",
      '.env.example': 'ADMIN_PASSWORD=changeme-placeholder\n',
    });
    const redact = await repositoryRedactor({ root, projectRoots: [join(root, 'app')], env: {} });
    const printed = 'admin: correct-horse-battery; stripe whsec_local_only_77; session Zx81Q7ab93LkPq2';
    expect(redact(printed)).toBe(`admin: ${REDACTED}; stripe ${REDACTED}; session ${REDACTED}`);
    expect(redact('DEBUG is true on port 8080; changeme-placeholder')).toBe(
      'DEBUG is true on port 8080; changeme-placeholder',
    );
  });

  it('reads the configured secret files and names', async () => {
    const root = await repo({
      'config/credentials.yml': 'licence_code: LIC-2024-ZZ\nregion: eu-west-1\n',
    });
    const redact = await repositoryRedactor({
      root,
      env: { ACME_LICENCE: 'env-licence-value' },
      secrets: { names: ['licence'], patterns: [], files: ['config/*.yml'] },
    });
    expect(redact('code LIC-2024-ZZ in eu-west-1, env-licence-value')).toBe(
      `code ${REDACTED} in eu-west-1, ${REDACTED}`,
    );
  });

  it('parses KEY=VALUE files the way shells and dotenv do', () => {
    expect(parseKeyValues('# c\nexport A="x y"\nB = \'q\'\nC=plain # note\nD:\n')).toEqual([
      ['A', 'x y'],
      ['B', 'q'],
      ['C', 'plain'],
    ]);
    expect(
      secretValuesOf([
        ['NAME', 'short'],
        ['API_TOKEN', 'abcdef'],
        ['X', 'aB3dE5gH7jK9'],
      ]),
    ).toEqual(['abcdef', 'aB3dE5gH7jK9']);
  });

  it('lists the private paths of a project: the built-in ones and the configured files inside it', () => {
    const paths = privatePathsOf('/r', '/r/app', ['app/secrets/*.json', '**/*.kdbx', 'other/x']);
    expect(paths).toEqual(
      expect.arrayContaining(['.env', '**/.env.*', '**/*.pem', '.git/**', 'secrets/*.json', '**/*.kdbx']),
    );
    expect(paths).not.toContain('other/x');
  });
});

describe('secrets the sources hold as literals', () => {
  it('are learned before anything is printed, in the project roots, and not from dependencies', async () => {
    const root = await repo({
      'app/src/config.py': 'DB_PASSWORD = "pw-Lit3ral-9931"\nTIMEOUT = 30\n',
      'app/settings.yml': 'smtp:\n  password: smtp-pl4nted-0007\n',
      'app/node_modules/dep/index.js': 'const token = "dep-t0ken-0009";\n',
    });
    const redact = await repositoryRedactor({ root, projectRoots: [join(root, 'app')], env: {} });
    expect(redact('FAILED test_login - login failed for pw-Lit3ral-9931')).toBe(
      `FAILED test_login - login failed for ${REDACTED}`,
    );
    expect(redact('sent smtp-pl4nted-0007')).toBe(`sent ${REDACTED}`);
    expect(redact('TIMEOUT 30 dep-t0ken-0009')).toBe('TIMEOUT 30 dep-t0ken-0009');
  });
});

describe('secrets the sources of a git work tree hold as literals', () => {
  it('are read from its tracked and untracked sources, not from ignored ones or dependencies', async () => {
    const root = await repo({
      '.gitignore': 'generated/\n',
      'app/config.py': 'DB_PASSWORD = "pw-Tracked-0001"\n',
      'app/new_settings.py': 'API_TOKEN = "tok-Untracked-0002"\n',
      'app/generated/out.py': 'password = "pw-Ignored-0003"\n',
      'app/node_modules/dep/index.js': 'const token = "dep-t0ken-0004";\n',
    });
    const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    git('init', '-q');
    git('add', '.gitignore', 'app/config.py');
    const values = await repositorySecretValues({ root, projectRoots: [join(root, 'app')], env: {} });
    expect(values.sort()).toEqual(['pw-Tracked-0001', 'tok-Untracked-0002']);
  });

  it('are read by a walk when the project sits in a folder an enclosing repository ignores', async () => {
    const top = await repo({
      '.gitignore': 'scratch/\n',
      'scratch/app/config.py': 'DB_PASSWORD = "pw-Ignored-Root-05"\n',
    });
    execFileSync('git', ['init', '-q'], { cwd: top, stdio: 'ignore' });
    const root = join(top, 'scratch');
    const values = await repositorySecretValues({ root, projectRoots: [join(root, 'app')], env: {} });
    expect(values).toEqual(['pw-Ignored-Root-05']);
  });
});
