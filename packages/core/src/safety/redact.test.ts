import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED, redactDeep, secretValues } from './redact.js';

/** Twenty kinds of secrets: by environment variable name, and by well-known token format. */
export const PLANTED_ENV: Record<string, string> = {
  ANTHROPIC_API_KEY: 'sk-ant-api03-plantedANTHROPICvalue0001',
  OPENAI_API_KEY: 'sk-proj-plantedOPENAIvalue000000000002',
  GITHUB_TOKEN: 'ghp_plantedGITHUBtoken00000000000000000003',
  NPM_TOKEN: 'npm_plantedNPMtoken0000000000000000000004',
  AWS_SECRET_ACCESS_KEY: 'plantedAWSsecret/0000000000000000000005',
  DATABASE_PASSWORD: 'planted-db-password-0006',
  MY_SERVICE_SECRET: 'planted-service-secret-0007',
  SLACK_BOT_TOKEN: 'xoxb-planted-slack-0000000008',
  STRIPE_KEY: 'sk_live_plantedSTRIPE00000009',
  PASSWORD: 'planted-plain-password-0010',
  CI_JOB_TOKEN: 'planted-ci-job-token-0011',
  HF_TOKEN: 'hf_plantedHUGGINGFACE000000000000000012',
  SENTRY_AUTH_TOKEN: 'planted-sentry-auth-0013',
  PRIVATE_KEY_PASSPHRASE: 'planted-passphrase-0014',
};
export const PLANTED_INLINE: string[] = [
  'AKIAPLANTEDAWS000015',
  'AIzaPlantedGoogleKey0000000000000000016',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkMTcifQ.planted-jwt-signature-0017',
  'glpat-plantedGITLAB00000018',
  'github_pat_plantedFINEGRAINED0000000000000000000000000000019',
  '-----BEGIN RSA PRIVATE KEY-----\nplanted-private-key-0020\n-----END RSA PRIVATE KEY-----',
];

describe('secret redaction', () => {
  it('collects values of variables named like keys, tokens, secrets and passwords', () => {
    const values = secretValues({
      ...PLANTED_ENV,
      HOME: '/root',
      PATH: '/usr/bin',
      SHORT_TOKEN: 'abc',
      KEYBOARD: 'us-international',
    });
    for (const v of Object.values(PLANTED_ENV)) expect(values).toContain(v);
    expect(values).not.toContain('/root');
    expect(values).not.toContain('abc');
  });

  it('removes all twenty planted kinds from text', () => {
    const redact = createRedactor(PLANTED_ENV);
    const text = [...Object.values(PLANTED_ENV), ...PLANTED_INLINE]
      .map((s, i) => `line ${i}: value=${s} end`)
      .join('\n');
    const out = redact(text);
    for (const s of [...Object.values(PLANTED_ENV), ...PLANTED_INLINE]) {
      for (const fragment of s.split('\n'))
        if (fragment.includes('planted') || fragment.includes('PLANTED')) expect(out).not.toContain(fragment);
    }
    expect(out.split(REDACTED).length - 1).toBeGreaterThanOrEqual(20);
    expect(out).toContain('line 0: value=');
  });

  it('redacts bearer tokens and passwords in URLs from an unknown environment', () => {
    const redact = createRedactor({});
    expect(redact('Authorization: Bearer abcdefghijklmnop1234')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redact('postgres://user:hunter2secret@db:5432/x')).toBe(`postgres://user:${REDACTED}@db:5432/x`);
  });

  it('leaves ordinary code alone', () => {
    const redact = createRedactor({ HOME: '/root' });
    const code = 'def total(items):\n    return sum(i.price for i in items)  # sk- prefix is fine alone\n';
    expect(redact(code)).toBe(code);
  });

  it('redacts every string of a nested value', () => {
    const redact = createRedactor({ API_TOKEN: 'tok-123456789' });
    const out = redactDeep({ a: ['x tok-123456789'], b: { c: 'tok-123456789' }, n: 3 }, redact);
    expect(out).toEqual({ a: [`x ${REDACTED}`], b: { c: REDACTED }, n: 3 });
  });
});
