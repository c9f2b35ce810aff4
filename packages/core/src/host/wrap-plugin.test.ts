import { describe, expect, it } from 'vitest';
import { PluginError } from '../api/errors.js';
import { API_VERSION, type Analyzer, type Logger } from '../api/plugin.js';
import { wrapAnalyzer } from './wrap-plugin.js';

function recorder(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  return {
    warnings,
    logger: { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {} },
  };
}

const origin = { configFile: 'suture.config.json', keyPath: 'projects[0].analyzer' };

const broken: Analyzer = {
  name: 'broken-analyzer',
  apiVersion: API_VERSION,
  analyze: async () => {
    throw new Error('no grammar');
  },
  scope: async () => ({ entries: [] }),
  isTestFile: () => {
    throw new Error('bad pattern');
  },
  checkSyntax: () => {
    throw new RangeError('parser stack overflow');
  },
};

describe('wrapAnalyzer', () => {
  it('turns a throw into a PluginError naming the plugin and its config entry', async () => {
    const { logger } = recorder();
    const error = await wrapAnalyzer(broken, origin, logger)
      .analyze({} as never, {} as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginError);
    expect((error as PluginError).message).toBe(
      'broken-analyzer (suture.config.json#projects[0].analyzer): no grammar',
    );
  });

  it('takes a throwing synchronous hook as "cannot tell", and says so', () => {
    const { logger, warnings } = recorder();
    const wrapped = wrapAnalyzer(broken, origin, logger);
    expect(wrapped.isTestFile!('tests/test_a.py')).toBe(false);
    expect(wrapped.checkSyntax!('a.py', 'x = 1\n')).toBeUndefined();
    expect(warnings).toEqual([
      'broken-analyzer (suture.config.json#projects[0].analyzer): bad pattern (in isTestFile(tests/test_a.py); taken as "cannot tell")',
      'broken-analyzer (suture.config.json#projects[0].analyzer): parser stack overflow (in checkSyntax(a.py); taken as "cannot tell")',
    ]);
  });

  it('passes checkTampering through: its reason reaches the engine, a throw is "cannot tell"', () => {
    const { logger, warnings } = recorder();
    const tampering: Analyzer = {
      ...broken,
      checkTampering: (file, _before, after) =>
        after.includes('gc.get_objects') ? `${file} walks the heap` : undefined,
    };
    const wrapped = wrapAnalyzer(tampering, origin, logger);
    expect(wrapped.checkTampering!('calc.py', '', 'import gc\ngc.get_objects()\n')).toBe(
      'calc.py walks the heap',
    );
    expect(wrapped.checkTampering!('calc.py', '', 'x = 1\n')).toBeUndefined();
    const throwing = wrapAnalyzer(
      {
        ...broken,
        checkTampering: () => {
          throw new Error('no tree');
        },
      },
      origin,
      logger,
    );
    expect(throwing.checkTampering!('calc.py', undefined, 'x = 1\n')).toBeUndefined();
    expect(warnings.at(-1)).toContain('no tree (in checkTampering(calc.py); taken as "cannot tell")');
  });
});
