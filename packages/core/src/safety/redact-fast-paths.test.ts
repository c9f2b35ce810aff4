import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED, redactDeep } from './redact.js';
import { isSecretName, mayHoldSecretName, nameWords } from './secret-names.js';

/** Secrets by environment name and by token format (a subset of redact.test.ts's twenty). */
const PLANTED_ENV: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-api03-plantedANTHROPICvalue0001',
  GITHUB_TOKEN: 'ghp_plantedGITHUBtoken00000000000000000003',
  AWS_SECRET_ACCESS_KEY: 'plantedAWSsecret/0000000000000000000005',
  DATABASE_PASSWORD: 'planted-db-password-0006',
  SLACK_BOT_TOKEN: 'xoxb-planted-slack-0000000008',
  SENTRY_AUTH_TOKEN: 'planted-sentry-auth-0013',
  PRIVATE_KEY_PASSPHRASE: 'planted-passphrase-0014',
  MY_SERVICE_CREDS: 'planted-service-creds-0015',
  MYSQL_PWD: 'planted-mysql-pwd-0016',
};
const PLANTED_INLINE: string[] = [
  'sk-proj-plantedOPENAIvalue000000000002',
  'AKIAPLANTEDAWS000015',
  'AIzaPlantedGoogleKey0000000000000000016',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkMTcifQ.planted-jwt-signature-0017',
  'glpat-plantedGITLAB00000018',
  'github_pat_plantedFINEGRAINED0000000000000000000000000000019',
  '-----BEGIN RSA PRIVATE KEY-----\nplanted-private-key-0020\n-----END RSA PRIVATE KEY-----',
  `npm_plantedNPMtoken${'0'.repeat(21)}`,
  'hf_plantedHUGGINGFACE000000000000000012',
  'sk_live_plantedSTRIPE00000009',
  'Bearer plantedBEARERtoken000000021',
  'postgres://user:planted-url-password-22@db:5432/x',
  'https://hooks.slack.com/services/T0PLANTED/B0PLANTED/plantedSLACKhook23',
  'https://discord.com/api/webhooks/123456789012345678/plantedDISCORDhook0000000024',
];

/** Names in the spellings code, configs and test output use: snake, kebab, camel, upper, dotted. */
function spellings(words: readonly string[]): string[] {
  const camel = words.map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');
  return [
    words.join('_'),
    words.join('_').toUpperCase(),
    words.join('-'),
    words.join('.'),
    camel,
    camel[0]!.toUpperCase() + camel.slice(1),
    words.join(''),
  ];
}

describe('the redactor skips work only where nothing can match', () => {
  it('finds a possible secret name in every name the secret-name rules accept', () => {
    const words = [
      ...new Set([
        ...Object.keys(PLANTED_ENV).flatMap(nameWords),
        ...['db', 'client', 'api', 'private', 'access', 'session', 'cache', 'primary', 'sort', 'my'],
        ...['passphrase', 'credentials', 'creds', 'auth', 'pwd', 'secrets', 'apikey', 'key', 'token'],
      ]),
    ];
    let accepted = 0;
    for (const a of words)
      for (const b of words)
        for (const name of [...spellings([a]), ...spellings([a, b]), ...spellings(['x', a, b])]) {
          if (!isSecretName(name)) continue;
          accepted++;
          expect(mayHoldSecretName(name), name).toBe(true);
        }
    expect(accepted).toBeGreaterThan(1000);
  });

  it('sees no possible secret name in ordinary test ids, paths and output', () => {
    for (const text of [
      'tests/test_sorted_list.py::test_bisect_left[3]',
      'NodeTest.SimpleScalar',
      'yaml-cpp::test',
      'src/a/b/c.cpp:120: Failure\nExpected equality of these values:\n  total(items)\n    Which is: 3',
    ])
      expect(mayHoldSecretName(text), text).toBe(false);
  });

  it('masks every planted kind in long output where it sits among thousands of ordinary lines', () => {
    const redact = createRedactor(PLANTED_ENV);
    const filler = Array.from({ length: 5000 }, (_, i) => `ok ${i} tests/test_x.py::test_${i} PASSED`);
    const planted = [...Object.values(PLANTED_ENV), ...PLANTED_INLINE];
    filler.splice(2500, 0, ...planted.map((s) => `printed ${s} here`));
    const out = redact(filler.join('\n'));
    for (const s of planted)
      for (const fragment of s.split('\n'))
        if (/planted/i.test(fragment)) expect(out).not.toContain(fragment);
    expect(out).toContain('ok 4999 tests/test_x.py::test_4999 PASSED');
  });

  it('answers a string it has seen before the same way, and never from another redactor', () => {
    const one = createRedactor({ SERVICE_TOKEN: 'first-planted-token' });
    const two = createRedactor({ SERVICE_TOKEN: 'second-planted-token' });
    const text = 'got first-planted-token and second-planted-token';
    expect(one(text)).toBe(`got ${REDACTED} and second-planted-token`);
    expect(one(text)).toBe(`got ${REDACTED} and second-planted-token`);
    expect(two(text)).toBe(`got first-planted-token and ${REDACTED}`);
    const event = { test: { id: 'a', message: text } };
    const report = { rounds: [{ tests: [{ id: 'a', message: text }] }] };
    expect(redactDeep(event, one).test.message).toBe(redactDeep(report, one).rounds[0]!.tests[0]!.message);
  });

  it('masks secrets in strings longer than what it remembers, every time', () => {
    const redact = createRedactor({ SERVICE_TOKEN: 'long-planted-token' });
    const text = `${'x'.repeat(10_000)} long-planted-token ${'y'.repeat(10_000)}`;
    for (let i = 0; i < 2; i++) {
      const out = redact(text);
      expect(out).not.toContain('long-planted-token');
      expect(out.length).toBe(text.length - 'long-planted-token'.length + REDACTED.length);
    }
  });

  it('keeps the configured names and patterns working where the built-in hints see nothing', () => {
    const redact = createRedactor({}, [], { names: [/^shh$/i], patterns: [/corp-[0-9]{6}/] });
    expect(redact('shh = "quiet-value-1"')).toBe(`shh = "${REDACTED}"`);
    expect(redact('id corp-123456 seen')).toBe(`id ${REDACTED} seen`);
  });
});
