import { describe, expect, it } from 'vitest';
import { FixerError, PluginError, usageOfError } from './errors.js';

const spent = {
  inputTokens: 10,
  outputTokens: 2,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0.01,
  calls: 1,
};

describe('usageOfError', () => {
  it('finds the usage of a FixerError wrapped by the plugin guard', () => {
    expect(
      usageOfError(
        new PluginError('p', undefined, 'bad answer', { cause: new FixerError('bad answer', spent) }),
      ),
    ).toEqual(spent);
  });

  it('finds it on a FixerError made by another copy of @suture/core, which instanceof would miss', () => {
    class ForeignFixerError extends Error {
      override name = 'FixerError';
      constructor(
        message: string,
        readonly usage: object,
      ) {
        super(message);
      }
    }
    expect(
      usageOfError(new PluginError('p', undefined, 'x', { cause: new ForeignFixerError('x', spent) })),
    ).toEqual(spent);
  });

  it('parses the usage, so an older copy without cache counts adds zeros to the totals, not NaN, and garbage is left out', () => {
    const old = { inputTokens: 10, outputTokens: 2, costUsd: 0.01, calls: 1 };
    expect(usageOfError(new FixerError('x', old as never))).toEqual({
      ...old,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(usageOfError(new FixerError('x', { inputTokens: -1 } as never))).toBeUndefined();
  });

  it('finds nothing on other errors', () => {
    expect(usageOfError(new Error('plain'))).toBeUndefined();
    expect(usageOfError(new FixerError('no usage'))).toBeUndefined();
    expect(usageOfError('a string')).toBeUndefined();
  });
});

describe('PluginError', () => {
  it('names the plugin and its config entry once, even when its message starts with its name', () => {
    const origin = { configFile: 'suture.config.json', keyPath: '--generator' };
    expect(
      new PluginError('@suture/generator-llm', origin, '@suture/generator-llm wrote no test file').message,
    ).toBe('@suture/generator-llm (suture.config.json#--generator): wrote no test file');
    expect(new PluginError('gen', undefined, 'gen: timed out').message).toBe('gen: timed out');
    // a name that only starts the same is the plugin's own text
    expect(new PluginError('gen', undefined, 'generator failed').message).toBe('gen: generator failed');
  });
});
