import { describe, expect, it } from 'vitest';
import { createGoCache } from '../go-source.js';
import { goTampering } from './tampering.js';

const cache = createGoCache(8);
const check = (file: string, before: string | undefined, after: string): string | undefined =>
  goTampering((s) => cache.parseText(s).tree, file, before, after);

const CODE = 'package calc\n\nfunc Add(a, b int) int { return a + b }\n';
const TEST =
  'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Error("no")\n\t}\n}\n';

describe('Go tampering rules', () => {
  it('lets a plain fix of the code under test through', () => {
    expect(check('calc.go', CODE.replace('a + b', 'a - b'), CODE)).toBeUndefined();
  });

  const refused: Array<[string, string, string, RegExp]> = [
    [
      'os.Exit in code under test',
      'calc.go',
      CODE.replace('return a + b', 'os.Exit(0); return 0'),
      /os\.Exit\(\)/,
    ],
    [
      'runtime.Goexit',
      'calc.go',
      CODE.replace('return a + b', 'runtime.Goexit(); return 0'),
      /runtime\.Goexit/,
    ],
    [
      'the testing package imported into code under test',
      'calc.go',
      CODE.replace('package calc\n', 'package calc\n\nimport "testing"\n\nvar _ testing.T\n'),
      /import of "testing"/,
    ],
    ['a TestMain', 'calc_test.go', `${TEST}\nfunc TestMain(m *testing.M) {}\n`, /TestMain/],
    ['an init in a test file', 'calc_test.go', `${TEST}\nfunc init() {}\n`, /init function/],
    ['a build constraint on a test file', 'calc_test.go', `//go:build never\n\n${TEST}`, /build constraint/],
    ['a go:linkname', 'calc.go', `${CODE}\n//go:linkname x runtime.x\n`, /linkname/],
    [
      'printed result lines',
      'calc.go',
      CODE.replace('return a + b', 'println("--- PASS: TestAdd (0.00s)"); return a + b'),
      /result lines/,
    ],
    [
      'a change of test flags',
      'calc_test.go',
      TEST.replace('if Add', 'flag.Set("test.run", "^$")\n\tif Add'),
      /flags/,
    ],
  ];
  for (const [name, file, after, reason] of refused)
    it(`refuses ${name}`, () => {
      const before = file.endsWith('_test.go') ? TEST : CODE;
      expect(check(file, before, after)).toMatch(reason);
    });

  it('says nothing of what the file did before the edit', () => {
    const exits = CODE.replace('return a + b', 'os.Exit(0); return 0');
    expect(check('calc.go', exits, exits.replace('Add', 'Plus'))).toBeUndefined();
  });

  it('reads comments and strings that only mention os.Exit as nothing', () => {
    expect(
      check('calc.go', CODE, `${CODE}\n// os.Exit(0) is never called\nvar s = "os.Exit(0)"\n`),
    ).toBeUndefined();
  });
});
