import { describe, expect, it } from 'vitest';
import { gtestCases, jestTests, pythonTests, testIds } from './test-names.js';

describe('test names read from a generated file', () => {
  it('pytest: top-level test functions and the test methods of Test classes, not helpers or nested defs', () => {
    const text = [
      'import pytest',
      'from calc.ops import clamp',
      '',
      'def helper():',
      '    def test_nested():',
      '        pass',
      '',
      '@pytest.mark.parametrize("v", [1, 2])',
      'def test_low(v):',
      '    assert clamp(v, 0, 1) <= 1',
      '',
      'async def test_async():',
      '    pass',
      '',
      'class TestClamp:',
      '    def setup_method(self):',
      '        pass',
      '',
      '    def test_high(self):',
      '        def test_inner():',
      '            pass',
      '        assert clamp(9, 0, 1) == 1',
      '',
      'class Helper:',
      '    def test_not_collected(self):',
      '        pass',
      '',
      'def test_last():',
      '    """def test_in_a_docstring(): no"""',
    ].join('\n');
    expect(pythonTests(text)).toEqual(['test_low', 'test_async', 'TestClamp::test_high', 'test_last']);
    expect(testIds('python', 'tests/gen/test_gen_ops.py', text)[0]).toBe(
      'tests/gen/test_gen_ops.py::test_low',
    );
  });

  it('GoogleTest: TEST and TEST_F cases under the CTest entry of the generated program, comments ignored', () => {
    const text = [
      '#include <gtest/gtest.h>',
      '// TEST(Commented, Out) {}',
      '/* TEST(Block, Comment) {} */',
      'TEST(Clamp, Low) { EXPECT_EQ(clamp(-1, 0, 9), 0); }',
      'TEST_F (Fixture , Uses) {}',
    ].join('\n');
    expect(gtestCases(text)).toEqual(['Clamp.Low', 'Fixture.Uses']);
    expect(testIds('cpp', 'tests/gen/ops_test.cpp', text)).toEqual([
      'suture_gen_ops_test::Clamp.Low',
      'suture_gen_ops_test::Fixture.Uses',
    ]);
  });

  it("Jest: full names as Jest reports them (describe titles and the test's), strings and comments skipped", () => {
    const text = [
      "const { clamp } = require('../../src/ops');",
      '// test("commented", () => {})',
      "describe('clamp', () => {",
      "  it('keeps (a value) inside', () => {",
      "    expect(clamp(5, 0, 10)).toBe(5); // it('no')",
      '  });',
      '  describe("at the edges", () => {',
      '    test.only(`raises to the low bound`, () => { expect(\'test("x")\').toBeTruthy(); });',
      '  });',
      "  it('after the nested group', () => {});",
      '});',
      "test('top level', () => {});",
      'test(`dynamic ${1}`, () => {});',
      "xit('skipped', () => {});",
    ].join('\n');
    expect(jestTests(text)).toEqual([
      'clamp keeps (a value) inside',
      'clamp at the edges raises to the low bound',
      'clamp after the nested group',
      'top level',
    ]);
    expect(testIds('javascript', '__tests__/gen/ops.gen.test.js', text)[3]).toBe(
      '__tests__/gen/ops.gen.test.js::top level',
    );
  });
});
