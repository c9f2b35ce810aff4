import { describe, expect, it } from 'vitest';
import { ScriptCache } from './js-model.js';
import { scriptTampering } from './tampering.js';

const cache = new ScriptCache(4);
const check = (file: string, before: string | undefined, after: string): string | undefined =>
  scriptTampering((name, source) => cache.forFile(name).parseText(source).tree, file, before, after);

const CALC = 'function add(a, b) {\n  return a - b;\n}\n\nmodule.exports = { add };\n';
/** calc.js with `body` before add's return and `top` above it. */
const calcWith = (body: string, top = ''): string =>
  `${top}\nfunction add(a, b) {\n${body}\n  return a + b;\n}\n\nmodule.exports = { add };\n`;

describe('scriptTampering: what an edit to code under test may not add', () => {
  it.each([
    [
      'global.expect replaced',
      calcWith('', 'global.expect = () => ({ toBe() {} });'),
      /^line 1 adds `global\.expect = \(\) => \(\{ toBe\(\) \{\} \}\)`, a test global replaced or changed$/,
    ],
    [
      'globalThis.test replaced',
      calcWith("  globalThis['test'] = (name, fn) => {};"),
      /globalThis\['test'\]/,
    ],
    ['window.it replaced', calcWith('  window.it = () => {};'), /window\.it/],
    [
      'a TypeScript cast of global',
      calcWith('  (global as any).describe = () => {};'),
      /a test global replaced/,
      'src/calc.ts',
    ],
    ['vi replaced', calcWith('  globalThis.vi = {};'), /globalThis\.vi/],
    ['a matcher of expect changed', calcWith('  expect.toBe = () => {};'), /expect\.toBe = /],
    [
      'expect defined on the global object',
      calcWith("  Object.defineProperty(globalThis, 'expect', { value: () => {} });"),
      /test global/,
    ],
    ['Object.assign onto global', calcWith('  Object.assign(global, { it: () => {} });'), /test global/],
    ['Reflect.set on global', calcWith("  Reflect.set(globalThis, 'jest', {});"), /test global/],
    [
      'expect.extend from code under test',
      calcWith('  expect.extend({ toBe: () => ({ pass: true }) });'),
      /expect\.extend/,
    ],
    ['process.exit', calcWith('  process.exit(0);'), /process\.exit\(\), which ends the test process/],
    [
      'an exit taken out of process',
      calcWith('  const { exit: leave } = process;\n  leave(0);'),
      /process\.exit\(\)/,
    ],
    ["process['exit']", calcWith("  process['exit'](0);"), /process\.exit\(\)/],
    [
      'code run from a string',
      calcWith("  new Function('process.exit(0)')();\n  eval('1');"),
      /Function\(\), code run from a string/,
    ],
    ['process.reallyExit', calcWith('  process.reallyExit(0);'), /process\.reallyExit\(\)/],
    [
      'process.kill of its own pid',
      calcWith("  process.kill(process.pid, 'SIGKILL');"),
      /process\.kill\(process\.pid\)/,
    ],
    [
      "process.on('exit')",
      calcWith("  process.on('exit', () => { process.exitCode = 0; });"),
      /process\.on\('exit'\), a handler/,
    ],
    ["process.once('beforeExit')", calcWith("  process.once('beforeExit', () => {});"), /beforeExit/],
    [
      'requiring jest-circus',
      calcWith('', "const circus = require('jest-circus');"),
      /a use of jest-circus, the test framework/,
    ],
    ['requiring expect', calcWith('', "const expect2 = require('expect');"), /a use of expect/],
    [
      'importing @jest/globals',
      calcWith('', "import { expect } from '@jest/globals';"),
      /a use of @jest\/globals/,
      'src/calc.mjs',
    ],
    ['importing vitest', calcWith('', "import { vi } from 'vitest';"), /a use of vitest/, 'src/calc.ts'],
    [
      'a dynamic import of @vitest/runner',
      calcWith("  import('@vitest/runner');"),
      /a use of @vitest\/runner/,
    ],
    [
      'a printed PASS line',
      calcWith("  console.log('PASS __tests__/calc.test.js');"),
      /'PASS __tests__\/calc\.test\.js', printed text that reads as a test result/,
    ],
    [
      'a printed summary',
      calcWith('  process.stdout.write(`Tests:       2 passed, 2 total\\n`);'),
      /reads as a test result/,
    ],
  ])('refuses %s', (_name, after, reason, file = 'src/calc.js') => {
    expect(check(file, CALC, after)).toMatch(reason);
  });

  it('refuses a test global replaced, an exit handler and a kill in a test file too', () => {
    const test =
      "const { add } = require('../src/calc');\n\ntest('adds', () => {\n  expect(add(2, 3)).toBe(5);\n});\n";
    expect(check('__tests__/calc.test.js', test, `global.expect = () => ({ toBe() {} });\n${test}`)).toMatch(
      /global\.expect/,
    );
    expect(check('__tests__/calc.test.js', test, `process.on('exit', () => {});\n${test}`)).toMatch(
      /process\.on\('exit'\)/,
    );
    expect(check('test/helpers.js', '', 'process.kill(process.ppid);\n')).toMatch(
      /process\.kill\(process\.ppid\)/,
    );
  });

  it('refuses the same in a new file, all of which is added', () => {
    expect(check('src/setup.js', undefined, '\nglobalThis.it = () => {};\n')).toMatch(
      /^line 2 adds `globalThis\.it/,
    );
  });
});

describe('scriptTampering: near misses that pass', () => {
  it.each([
    [
      'a comment mentioning process.exit',
      calcWith('  // never call process.exit(0) here: it hides failures'),
    ],
    [
      'a string mentioning global.expect',
      calcWith("  const why = 'global.expect = x and process.exit are refused';"),
    ],
    ['a local iterator named it', calcWith('  let it = [a, b].values();\n  it = it.next();')],
    [
      'a parameter named test',
      'function add(a, b, test) {\n  test = test || 0;\n  return a + b;\n}\n\nmodule.exports = { add };\n',
    ],
    ['an exit of its own object', calcWith('  server.exit(0);\n  app.process.exit(1);')],
    ['a kill of a child', calcWith("  child.kill('SIGTERM');\n  process.kill(child.pid);")],
    ["process.on('message')", calcWith("  process.on('message', () => {});")],
    [
      'requiring its own helpers',
      calcWith('', "const expectations = require('./expectations');\nconst jestish = require('jestish');"),
    ],
    ['a plain fix', 'function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n'],
    ['a log line of its own', calcWith("  console.log('add passed', a, b);")],
  ])('passes %s', (_name, after) => {
    expect(check('src/calc.js', CALC, after)).toBeUndefined();
  });

  it('passes an unrelated fix to a CLI that already exits, and a new exit behind require.main', () => {
    const cli =
      'function run(argv) {\n  if (!argv.length) process.exit(2);\n  return 1;\n}\n\nmodule.exports = { run };\n';
    expect(check('src/cli.js', cli, cli.replace('return 1', 'return 0'))).toBeUndefined();
    expect(
      check(
        'src/cli.js',
        cli,
        `${cli}\nif (require.main === module) {\n  process.exit(run(process.argv.slice(2)));\n}\n`,
      ),
    ).toBeUndefined();
  });

  it('passes what tests do: importing the framework and extending expect in a test or a helper', () => {
    const test = "test('adds', () => {\n  expect(1).toBe(1);\n});\n";
    expect(
      check(
        '__tests__/calc.test.ts',
        test,
        `import { expect, test } from '@jest/globals';\nexpect.extend({ toBeOne: () => ({ pass: true, message: () => '' }) });\n${test}`,
      ),
    ).toBeUndefined();
    expect(
      check('test/matchers.js', undefined, "const { expect } = require('expect');\nexpect.extend({});\n"),
    ).toBeUndefined();
  });

  it('reads only scripts', () => {
    expect(check('README.md', '', 'global.expect = 1;\n')).toBeUndefined();
  });
});
