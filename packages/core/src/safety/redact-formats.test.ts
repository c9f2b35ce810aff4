import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED, secretLiterals, secretValues } from './redact.js';

describe('secret names and formats beyond the common ones', () => {
  it('treats a password, token or secret anywhere in a variable name as secret (PGPASSWORD, MYSQL_PWD)', () => {
    const env = {
      PGPASSWORD: 'pg-planted-password',
      MYSQL_PWD: 'mysql-planted-pwd',
      GHTOKEN: 'gh-planted-token',
      CLIENTSECRET: 'planted-client-secret',
    };
    const values = secretValues(env);
    for (const v of Object.values(env)) expect(values).toContain(v);
  });

  it('leaves the working directories and keyboard settings alone', () => {
    const values = secretValues({
      PWD: '/work/project',
      OLDPWD: '/home/user',
      KEYBOARD_LAYOUT: 'us-international',
      MONKEY_PATH: '/usr/lib/monkey',
    });
    expect(values).toEqual([]);
  });

  it('redacts Slack and Discord webhook URLs wherever they appear', () => {
    const redact = createRedactor({});
    expect(
      redact('post to https://hooks.slack.com/services/T0ABCDEFG/B0ABCDEFGHI/abcdefghijklmnopqrstuvwx now'),
    ).toBe(`post to https://hooks.slack.com/services/${REDACTED} now`);
    expect(
      redact('https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz_ABCDEFGH'),
    ).toBe(`https://discord.com/api/webhooks/${REDACTED}`);
    expect(redact('https://hooks.slack.com/workflows/T0ABCDEFG/A0ABCDEFG/123456789/abcdefghijklmnop')).toBe(
      `https://hooks.slack.com/workflows/${REDACTED}`,
    );
    expect(redact('https://hooks.slack.com/triggers/T0ABCDEFG/123456789/abcdefghijklmnop')).toBe(
      `https://hooks.slack.com/triggers/${REDACTED}`,
    );
    expect(
      redact('https://discordapp.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz_ABCDEFGH'),
    ).toBe(`https://discordapp.com/api/webhooks/${REDACTED}`);
  });
});

describe('credential files, as code that read them prints or raises them', () => {
  const AWS_SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYplantedKEY1';
  const AWS_FILE = `[default]\naws_access_key_id = AKIAPLANTEDAWS000015\naws_secret_access_key = ${AWS_SECRET}\n\n[prod]\naws_session_token=FwoGZXIvYXdzEplantedSESSION2\nregion = eu-west-1\n`;

  it('masks INI values under a secret name in any section, and leaves the others', () => {
    const out = createRedactor({})(AWS_FILE);
    expect(out).not.toContain(AWS_SECRET);
    expect(out).not.toContain('FwoGZXIvYXdzEplantedSESSION2');
    expect(out).not.toContain('AKIAPLANTEDAWS000015');
    expect(out).toContain(`aws_secret_access_key = ${REDACTED}`);
    expect(out).toContain('region = eu-west-1');
    expect(out).toContain('[prod]');
  });

  it('masks them in an exception message as pytest prints it (E   ) and in a repr on one line', () => {
    const redact = createRedactor({});
    const pytest = AWS_FILE.split('\n')
      .map((l) => `E       ${l}`)
      .join('\n');
    expect(redact(`RuntimeError: boom\n${pytest}`)).not.toContain(AWS_SECRET);
    const repr = `AssertionError: assert 'x' in '${AWS_FILE.replace(/\n/g, '\\n')}'`;
    const out = createRedactor({})(repr);
    expect(out).not.toContain(AWS_SECRET);
    expect(out).not.toContain('FwoGZXIvYXdzEplantedSESSION2');
    expect(out).toContain('region = eu-west-1');
    // the same file as a JSON string (a reporter's copy)
    expect(createRedactor({})(JSON.stringify(AWS_FILE))).not.toContain(AWS_SECRET);
  });

  it('masks .pypirc, YAML and diff lines under secret names', () => {
    const redact = createRedactor({});
    const pypirc =
      '[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmcplantedPYPItoken0000000000000000000000\n';
    expect(redact(pypirc)).not.toContain('plantedPYPItoken');
    expect(redact(pypirc)).toContain('username = __token__');
    const yaml =
      'database:\n  user: app\n  password: planted-yaml-pw-31\n  secret_key: planted-yaml-sk-32\n  - token: planted-yaml-tok-33\nport: 5432\n';
    const out = redact(yaml);
    for (const v of ['planted-yaml-pw-31', 'planted-yaml-sk-32', 'planted-yaml-tok-33'])
      expect(out).not.toContain(v);
    expect(out).toContain('user: app');
    expect(out).toContain('port: 5432');
    expect(redact('-password = planted-old-pw-34\n+password = planted-new-pw-35')).not.toMatch(
      /planted-(old|new)/,
    );
  });

  it('masks .npmrc auth lines, scoped to a registry or not', () => {
    const npmrc =
      '//registry.npmjs.org/:_authToken=plantedNPMRCauthToken0041\n//npm.corp.example/repo/:_password=cGxhbnRlZE5QTVJDcGFzczQy\n_auth=cGxhbnRlZDpOUE1SQ2F1dGg0Mw==\nregistry=https://registry.npmjs.org/\n';
    const out = createRedactor({})(npmrc);
    for (const v of ['plantedNPMRCauthToken0041', 'cGxhbnRlZE5QTVJDcGFzczQy', 'cGxhbnRlZDpOUE1SQ2F1dGg0Mw'])
      expect(out).not.toContain(v);
    expect(out).toContain('registry=https://registry.npmjs.org/');
  });

  it('masks netrc passwords on one line, on several, and in a repr', () => {
    const redact = createRedactor({});
    expect(redact('machine api.example.com login alice password planted-netrc-51')).toBe(
      `machine api.example.com login alice password ${REDACTED}`,
    );
    const multi =
      'machine git.example.com\n  login bob\n  password planted-netrc-52\ndefault login anon password planted-netrc-53\n';
    const out = redact(multi);
    expect(out).not.toContain('planted-netrc-52');
    expect(out).not.toContain('planted-netrc-53');
    expect(out).toContain('login bob');
    expect(redact(`'machine h\\n\\tlogin u\\n\\tpassword planted-netrc-54\\n'`)).not.toContain(
      'planted-netrc-54',
    );
    // prose that says "password" is not netrc
    expect(redact('the password is checked by the server')).toBe('the password is checked by the server');
  });

  it('masks a docker config auth, a URL userinfo and PEM blocks, whole or cut short', () => {
    const redact = createRedactor({});
    const docker = JSON.stringify({
      auths: { 'https://index.docker.io/v1/': { auth: 'cGxhbnRlZDpkb2NrZXI2MQ==' } },
    });
    expect(redact(docker)).not.toContain('cGxhbnRlZDpkb2NrZXI2MQ');
    expect(redact('fetching https://deploy:planted-url-pw-62@git.example.com/x.git')).not.toContain(
      'planted-url-pw-62',
    );
    const body = 'MIIEowIBAAKCAQEAplantedPEMbody0000000000000000000000000000000063';
    const pgp = `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${body}\n-----END PGP PRIVATE KEY BLOCK-----`;
    expect(redact(pgp)).toBe(REDACTED);
    // a bounded output tail that ends inside the key
    expect(redact(`key:\n-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n${body}`)).toBe(`key:\n${REDACTED}`);
    expect(redact(`'-----BEGIN RSA PRIVATE KEY-----\\n${body}\\n${body}'`)).toBe(`'${REDACTED}'`);
  });

  it('leaves code that names a secret without holding one alone', () => {
    const redact = createRedactor({});
    const code = [
      '    password = get_password(user)',
      '    token = self.session.token',
      '    password: str = field(default="")',
      '  const config = { token: opts.token, secret: secretOf(user), };',
      '    secret_key: Optional[str] = None',
      'E       AssertionError: token mismatch',
    ].join('\n');
    expect(redact(code)).toBe(code);
  });

  it('learns a value masked under a secret name, and masks it where it later appears alone', () => {
    const redact = createRedactor({});
    expect(redact('DB_PASSWORD = "pw-Lit3ral-9931"')).toBe(`DB_PASSWORD = "${REDACTED}"`);
    expect(redact('connecting with pw-Lit3ral-9931 failed')).toBe(`connecting with ${REDACTED} failed`);
    // a word is not learned: it would blank every test named after it
    expect(redact('password = "changeme"')).toBe(`password = "${REDACTED}"`);
    expect(redact('test_changeme_is_refused')).toBe('test_changeme_is_refused');
  });

  it('finds the literals of a source file before any of them is printed', () => {
    const src =
      'DB_PASSWORD = "pw-Lit3ral-9931"\nAPI = "https://example.com"\nsettings = {"apiKey": "k-9f8e7d6c5b"}\n';
    expect(secretLiterals(src).sort()).toEqual(['k-9f8e7d6c5b', 'pw-Lit3ral-9931']);
    const redact = createRedactor({}, secretLiterals(src));
    expect(redact('AssertionError: login failed for pw-Lit3ral-9931')).toBe(
      `AssertionError: login failed for ${REDACTED}`,
    );
  });
});
