import { describe, expect, it } from 'vitest';
import { goTestModel } from './index.js';

const FILE = 'calc/calc_test.go';
const model = (src: string) => goTestModel(FILE, src)!;
const wrap = (body: string, imports = '"testing"'): string =>
  `package calc\n\nimport (\n${imports}\n)\n\n${body}\n`;

const PLAIN = wrap(`func TestAdd(t *testing.T) {
	got := Add(2, 3)
	if got != 5 {
		t.Errorf("got %d", got)
	}
}`);

/** testify is read from source text only: it is never compiled here (no module proxy in CI). */
const TESTIFY = wrap(
  `func TestAdd(t *testing.T) {
	assert.Equal(t, 5, Add(2, 3))
	require.True(t, Add(1, 1) == 2)
	is := assert.New(t)
	is.NotEqual(0, Add(1, 2))
}`,
  '"testing"\n"github.com/stretchr/testify/assert"\n"github.com/stretchr/testify/require"',
);

describe('the Go test model', () => {
  it('reads `if got != want { t.Errorf }` as one assertion on Add with the form `@ == $`', () => {
    const m = model(PLAIN);
    expect(m.reader).toBe('tree');
    expect(m.tests.map((t) => t.name)).toEqual(['TestAdd']);
    const [a] = m.tests[0]!.assertions;
    expect(a).toMatchObject({ constant: false, form: 'not (@ != $)', expected: ['5'] });
    expect(a!.disarmed).toBeUndefined();
  });

  it("reads testify's assert and require, and a value made by assert.New(t)", () => {
    const m = model(TESTIFY);
    const texts = m.tests[0]!.assertions.map((a) => a.text);
    expect(texts).toEqual([
      'assert.Equal(t, 5, Add(2, 3))',
      'require.True(t, Add(1, 1) == 2)',
      'is.NotEqual(0, Add(1, 2))',
    ]);
    expect(m.tests[0]!.assertions[0]).toMatchObject({ form: '@ == $', expected: ['5'], constant: false });
  });

  it('marks a testify check of a value against itself as constant', () => {
    const m = model(
      TESTIFY.replace('assert.Equal(t, 5, Add(2, 3))', 'assert.Equal(t, Add(2, 3), Add(2, 3))'),
    );
    expect(m.tests[0]!.assertions[0]!.constant).toBe(true);
  });

  it('sees t.Skip as a skip and the assertions after it as never run', () => {
    const m = model(PLAIN.replace('got := Add(2, 3)', 't.Skip("later")\n\tgot := Add(2, 3)'));
    expect(m.tests[0]!.skipped).toBe(true);
    expect(m.tests[0]!.assertions[0]!.disarmed).toMatch(/after `t.Skip\("later"\)`/);
  });

  it('sees an early return, even a conditional one, as disarming what follows', () => {
    const plain = model(PLAIN.replace('got := Add(2, 3)', 'return\n\tgot := Add(2, 3)'));
    expect(plain.tests[0]!.assertions[0]!.disarmed).toMatch(/after `return`/);
    const guarded = model(
      PLAIN.replace('got := Add(2, 3)', 'got := Add(2, 3)\n\tif got != 0 {\n\t\treturn\n\t}'),
    );
    expect(guarded.tests[0]!.assertions[0]!.disarmed).toMatch(/if got != 0/);
  });

  it('folds conditions that can never fail the test to constants', () => {
    for (const cond of ['got != got', 'false && got != 5', 'got < got'])
      expect(model(PLAIN.replace('got != 5', cond)).tests[0]!.assertions[0]!.constant).toBe(true);
  });

  it('counts a helper that asserts as one, and its call as a check of the test', () => {
    const src = wrap(`func check(t *testing.T, got, want int) {
	t.Helper()
	if got != want {
		t.Fatalf("got %d want %d", got, want)
	}
}

func TestAdd(t *testing.T) { check(t, Add(2, 3), 5) }`);
    const m = model(src);
    expect(m.helpers?.map((h) => h.name)).toEqual(['check']);
    expect(m.tests[0]!.assertions.map((a) => a.text)).toEqual(['check(t, Add(2, 3), 5)']);
  });

  it('reads nothing of a file that is not a test file or does not parse', () => {
    expect(goTestModel('calc/calc.go', PLAIN)).toBeUndefined();
    expect(goTestModel(FILE, 'package calc\nfunc TestA(t *testing.T) {')).toBeUndefined();
  });
});
