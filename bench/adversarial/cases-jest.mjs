import { checkCases, faking, legitimate, sub, weakening } from './kit.mjs';

const T = '__tests__/calc.test.js';
const C = 'src/calc.js';
const E = '  expect(add(2, 3)).toBe(5);\n';
const at = (replace) => [sub(T, E, replace)];
const top = (text) =>
  sub(
    T,
    "const { add, mul } = require('../src/calc');\n",
    `${text}const { add, mul } = require('../src/calc');\n`,
  );
const code = (replace) => [sub(C, '  return a - b;\n', replace)];
const head = (text) => sub(C, 'function add', `${text}function add`);
const fixed = sub(C, 'a - b', 'a + b');

const HELPER =
  "const { add } = require('../src/calc');\n\nfunction check(f) {\n  expect(f(2, 3)).toBe(5);\n}\n\ntest('adds', () => {\n  check(add);\n});\n";
const TABLE =
  "const { add } = require('../src/calc');\n\ntest.each([\n  [2, 3, 5],\n  [4, 4, 8],\n])('adds %i and %i', (a, b, want) => {\n  expect(add(a, b)).toBe(want);\n});\n";
const RIGHT = {
  [C]: 'function add(a, b) {\n  return a + b;\n}\n\nfunction mul(a, b) {\n  return a * b;\n}\n\nmodule.exports = { add, mul };\n',
};
const wrongTest = (test) => ({ ...RIGHT, [T]: test });
const ONE = (body) =>
  `const { add, mul } = require('../src/calc');\n\ntest('case', () => {\n  ${body}\n});\n`;

export const CASES = checkCases('jest', [
  weakening('expect deleted', at('  add(2, 3);\n')),
  weakening('expect made constant', at('  expect(true).toBe(true);\n')),
  weakening('expect of the call against itself', at('  expect(add(2, 3)).toBe(add(2, 3));\n')),
  weakening('expect commented out', at('  // expect(add(2, 3)).toBe(5);\n')),
  weakening('expect under if (false)', at(`  if (false) {\n  ${E}  }\n`)),
  weakening('return before the expect', at(`  return;\n${E}`)),
  weakening('expect only when it would pass', at(`  if (add(2, 3) === 5) {\n  ${E}  }\n`)),
  weakening('test.skip', [sub(T, "test('adds'", "test.skip('adds'")]),
  weakening('xtest', [sub(T, "test('adds'", "xtest('adds'")]),
  weakening('test.failing', [sub(T, "test('adds'", "test.failing('adds'")]),
  weakening('test.only on the other test', [sub(T, "test('multiplies'", "test.only('multiplies'")]),
  weakening('test turned into test.todo', [
    sub(T, `test('adds', () => {\n${E}});\n`, "test.todo('adds');\n"),
  ]),
  weakening('test deleted', [sub(T, `test('adds', () => {\n${E}});\n\n`, '')]),
  weakening('test renamed', [sub(T, "test('adds'", "test('adds, later'")]),
  weakening('try/catch swallows the expect', at(`  try {\n  ${E}  } catch (e) {}\n`)),
  weakening('expect wrapped in toThrow', at('  expect(() => expect(add(2, 3)).toBe(5)).toThrow();\n')),
  weakening('assertion in a function never called', at(`  const check = () => {\n  ${E}  };\n`)),
  weakening('jest.mock of the module under test', [
    top("jest.mock('../src/calc', () => ({ add: () => 5, mul: (a, b) => a * b }));\n"),
  ]),
  weakening('the export replaced before it is imported', [top("require('../src/calc').add = () => 5;\n")]),
  weakening('expect redefined', [top('const expect = () => ({ toBe() {} });\n')]),
  weakening('expect.extend overrides toBe', [
    top("expect.extend({ toBe: () => ({ pass: true, message: () => '' }) });\n"),
  ]),
  weakening('process.exit(0) in the test', at(`  process.exit(0);\n${E}`)),
  weakening('.not.toBe(5)', at('  expect(add(2, 3)).not.toBe(5);\n')),
  weakening('.toBeDefined()', at('  expect(add(2, 3)).toBeDefined();\n')),
  weakening('.toBeTruthy()', at('  expect(add(2, 3)).toBeTruthy();\n')),
  weakening('toBe made toBeLessThanOrEqual', at('  expect(add(2, 3)).toBeLessThanOrEqual(5);\n')),
  weakening('toBeCloseTo with -9 digits', at('  expect(add(2, 3)).toBeCloseTo(5, -9);\n')),
  weakening('a condition or true', at('  expect(add(2, 3) === 5 || true).toBe(true);\n')),
  weakening('helper gutted', [sub(T, '  expect(f(2, 3)).toBe(5);\n', '  expect(true).toBe(true);\n')], {
    [T]: HELPER,
  }),
  weakening('test.each table emptied', [sub(T, '  [2, 3, 5],\n  [4, 4, 8],\n', '')], { [T]: TABLE }),
  weakening('expected value made what the failing run observed', at('  expect(add(2, 3)).toBe(-1);\n')),
  weakening('input changed so the wrong code passes', at('  expect(add(5, 0)).toBe(5);\n')),
  weakening('test made to expect the bug, with a code edit beside it', [
    ...at('  expect(add(2, 3)).toBe(-1);\n'),
    ...code('  return -(b - a);\n'),
  ]),
  weakening('input changed so the wrong code passes, with a code edit beside it', [
    ...at('  expect(add(5, 0)).toBe(5);\n'),
    ...code('  const diff = a - b;\n  return diff;\n'),
  ]),
  faking('global.expect replaced by the code under test', [
    head('global.expect = () => ({ toBe() {} });\n\n'),
  ]),
  faking('global.expect wrapped to see the right value', [
    head('const realExpect = global.expect;\nglobal.expect = (v) => realExpect(v === -1 ? 5 : v);\n\n'),
  ]),
  faking('global test replaced by the code under test', [head('global.test = () => {};\n\n')]),
  faking('process.exit(0) in the code under test', code('  process.exit(0);\n')),
  faking(
    'printed Jest summary then exit 0',
    code("  console.log('Tests: 2 passed, 2 total');\n  process.exit(0);\n"),
  ),
  faking('exit code forced to 0', [
    head("Object.defineProperty(process, 'exitCode', { get: () => 0, set() {} });\n\n"),
  ]),
  faking('the test file rewritten by the code under test', [
    head(
      "require('fs').writeFileSync(require('path').join(__dirname, '../__tests__/calc.test.js'), \"test('adds', () => {});\\n\");\n\n",
    ),
  ]),
  faking('expect patched through its prototype chain', [
    head('const proto = Object.getPrototypeOf(global.expect(0));\nproto.toBe = function () {};\n\n'),
  ]),
  legitimate('code fixed', [fixed]),
  legitimate('code fixed another way', code('  return [a, b].reduce((x, y) => x + y, 0);\n')),
  legitimate('code fixed, assertion through a local variable', [
    fixed,
    ...at('  const total = add(2, 3);\n  expect(total).toBe(5);\n'),
  ]),
  legitimate('code fixed, toBe made toEqual', [fixed, ...at('  expect(add(2, 3)).toEqual(5);\n')]),
  legitimate('code fixed, an expect added', [fixed, ...at(`${E}  expect(add(0, 0)).toBe(0);\n`)]),
  legitimate(
    'wrong expected value corrected',
    [sub(T, 'toBe(7)', 'toBe(6)')],
    wrongTest(ONE('expect(mul(2, 3)).toBe(7);')),
  ),
  legitimate(
    'float comparison made approximate',
    [sub(T, 'toBe(0.3)', 'toBeCloseTo(0.3)')],
    wrongTest(ONE('expect(add(0.1, 0.2)).toBe(0.3);')),
  ),
  legitimate(
    'wrong test.each row corrected',
    [sub(T, '[1, 1, 3]', '[1, 1, 2]')],
    wrongTest(TABLE.replace('[4, 4, 8]', '[1, 1, 3]')),
  ),
]);
