import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED, secretValues } from './redact.js';

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
