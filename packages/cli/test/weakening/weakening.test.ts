import { describe, expect, it } from 'vitest';
import { checkTestWeakening } from './readers.js';

const PY =
  'def test_total():\n    cart = Cart()\n    assert cart.total() == 10\n    assert cart.count == 1\n\ndef test_empty():\n    assert Cart().total() == 0\n';
const JS =
  "test('adds', () => {\n  expect(add(2, 3)).toBe(5);\n});\n\nit('subtracts', () => {\n  expect(sub(3, 2)).toBe(1);\n});\n";
const CPP =
  'TEST(Math, Add) {\n  EXPECT_EQ(add(2, 3), 5);\n  ASSERT_TRUE(ok());\n}\n\nTEST(Math, Mul) {\n  EXPECT_EQ(mul(2, 3), 6);\n}\n';

describe('checkTestWeakening', () => {
  it.each([
    [
      'python removed assert',
      't.py',
      PY,
      PY.replace('    assert cart.count == 1\n', ''),
      /removes 1 assertion/,
    ],
    [
      'python unittest assert removed',
      't.py',
      'class T:\n    def test_a(self):\n        self.assertEqual(f(), 1)\n',
      'class T:\n    def test_a(self):\n        f()\n',
      /removes 1 assertion/,
    ],
    [
      'pytest.skip added',
      't.py',
      PY,
      PY.replace('    cart = Cart()\n', '    pytest.skip("later")\n    cart = Cart()\n'),
      /adds a skip/,
    ],
    ['mark.skip added', 't.py', PY, `@pytest.mark.skip\n${PY}`, /adds a skip/],
    [
      'mark.xfail added',
      't.py',
      PY,
      PY.replace('def test_empty', '@pytest.mark.xfail\ndef test_empty'),
      /adds a skip/,
    ],
    [
      'python test deleted',
      't.py',
      PY,
      PY.replace(
        'def test_empty():\n    assert Cart().total() == 0\n',
        'def helper():\n    assert Cart().total() == 0\n',
      ),
      /deletes or renames test\(s\) test_empty/,
    ],
    [
      'python try/except swallows',
      't.py',
      PY,
      PY.replace(
        '    assert cart.total() == 10\n',
        '    try:\n        assert cart.total() == 10\n    except AssertionError:\n        pass\n',
      ),
      /swallows/,
    ],
    [
      'jest expect removed',
      'a.test.ts',
      JS,
      JS.replace('  expect(sub(3, 2)).toBe(1);\n', '  sub(3, 2);\n'),
      /removes 1 assertion/,
    ],
    ['jest .skip added', 'a.test.ts', JS, JS.replace("test('adds'", "test.skip('adds'"), /adds a skip/],
    [
      'the first of two tests of one name deleted, its twin kept',
      'a.test.ts',
      `${JS}\ntest('adds', () => {\n  expect(add(1, 1)).toBe(2);\n});\n`,
      `${JS.replace("test('adds', () => {\n  expect(add(2, 3)).toBe(5);\n});\n\n", '')}\ntest('adds', () => {\n  expect(add(1, 1)).toBe(2);\n});\n`,
      /deletes or renames test\(s\) adds/,
    ],
    [
      'the first of two tests of one name skipped, its twin kept',
      'a.test.ts',
      `${JS}\ntest('adds', () => {\n  expect(add(1, 1)).toBe(2);\n});\n`,
      `${JS.replace("test('adds'", "test.skip('adds'")}\ntest('adds', () => {\n  expect(add(1, 1)).toBe(2);\n});\n`,
      /adds a skip/,
    ],
    ['xit added', 'a.test.ts', JS, JS.replace("it('subtracts'", "xit('subtracts'"), /adds a skip/],
    ['xdescribe added', 'a.test.ts', JS, `xdescribe('all', () => {\n${JS}});\n`, /adds a skip/],
    [
      'test turned into test.todo',
      'a.test.ts',
      JS,
      JS.replace("it('subtracts', () => {\n  expect(sub(3, 2)).toBe(1);\n});\n", "it.todo('subtracts');\n"),
      /deletes or renames test\(s\) subtracts/,
    ],
    [
      'jest try/catch swallows',
      'a.test.ts',
      JS,
      JS.replace(
        '  expect(add(2, 3)).toBe(5);\n',
        '  try {\n    expect(add(2, 3)).toBe(5);\n  } catch (e) {}\n',
      ),
      /swallows/,
    ],
    [
      'gtest try/catch swallows',
      'm_test.cpp',
      CPP,
      CPP.replace(
        '  EXPECT_EQ(mul(2, 3), 6);\n',
        '  try {\n    EXPECT_EQ(mul(2, 3), 6);\n  } catch (...) {}\n',
      ),
      /swallows/,
    ],
    [
      'node assert try/catch swallows',
      'a.test.mjs',
      "import assert from 'node:assert';\nassert.equal(f(), 1);\n",
      "import assert from 'node:assert';\ntry {\n  assert.equal(f(), 1);\n} catch {}\n",
      /swallows/,
    ],
    [
      'python bare except swallows',
      't.py',
      PY,
      PY.replace(
        '    assert cart.count == 1\n',
        '    try:\n        assert cart.count == 1\n    except:\n        pass\n',
      ),
      /swallows/,
    ],
    [
      'jest test deleted',
      'a.test.ts',
      JS,
      JS.replace("it('subtracts', () => {\n  expect(sub(3, 2)).toBe(1);\n});\n", ''),
      /deletes or renames test\(s\).*subtracts/,
    ],
    [
      'gtest EXPECT removed',
      'm_test.cpp',
      CPP,
      CPP.replace('  ASSERT_TRUE(ok());\n', ''),
      /removes 1 assertion/,
    ],
    [
      'DISABLED_ added',
      'm_test.cpp',
      CPP,
      CPP.replace('TEST(Math, Mul)', 'TEST(Math, DISABLED_Mul)'),
      /adds a skip/,
    ],
    [
      'GTEST_SKIP added',
      'm_test.cpp',
      CPP,
      CPP.replace('  EXPECT_EQ(mul(2, 3), 6);\n', '  GTEST_SKIP();\n  EXPECT_EQ(mul(2, 3), 6);\n'),
      /adds a skip/,
    ],
  ])('refuses %s', (_name, file, before, after, reason) => {
    const verdict = checkTestWeakening(file, before, after);
    expect(verdict.weakening).toMatch(reason);
    expect(verdict.weakening).toContain(file);
    expect(verdict.expectationChanged).toBe(false);
  });

  it.each([
    ['python expected value', 't.py', PY, PY.replace('== 10', '== 12')],
    ['jest expected value', 'a.test.ts', JS, JS.replace('toBe(5)', 'toBe(6)')],
    ['gtest expected value', 'm_test.cpp', CPP, CPP.replace('6);', '7);')],
  ])('allows and flags an expectation change: %s', (_name, file, before, after) => {
    expect(checkTestWeakening(file, before, after)).toMatchObject({
      expectationChanged: true,
      readBy: 'tree',
    });
  });

  it('does not count an unrelated try/catch before an assertion as swallowing it', () => {
    const before =
      "test('a', () => {\n  setup();\n  expect(f()).toBe(1);\n});\ntest('b', () => {\n  try {\n    g();\n  } catch (e) {}\n});\n";
    const after = before.replace(
      '  setup();\n',
      '  try {\n    setup();\n  } catch (e) {\n    log(e);\n  }\n',
    );
    expect(checkTestWeakening('a.test.ts', before, after)).toEqual({
      expectationChanged: false,
      readBy: 'tree',
    });
  });

  it('accepts a change that touches no assertion and adds one', () => {
    const after = PY.replace('    cart = Cart()\n', '    cart = Cart(items=[1])\n').replace(
      'def test_empty():\n',
      'def test_empty():\n    assert Cart().count == 0\n',
    );
    expect(checkTestWeakening('t.py', PY, after)).toEqual({ expectationChanged: false, readBy: 'tree' });
  });
});
