import { describe, expect, it } from 'vitest';
import { createPythonCache } from './python-model.js';
import { pythonTampering } from './tampering.js';

const cache = createPythonCache(4);
const parse = (source: string) => cache.parseText(source).tree;
const check = (file: string, before: string | undefined, after: string): string | undefined =>
  pythonTampering(parse, file, before, after);

const CALC = 'def add(a, b):\n    return a - b\n';
/** `add` with `body` in place of its return. */
const calcWith = (imports: string, body: string): string =>
  `${imports}\n\ndef add(a, b):\n${body}\n    return a + b\n`;

describe('pythonTampering: what an edit to code under test may not add', () => {
  it.each([
    [
      'a gc walk that finds the plugin event log',
      calcWith(
        'import gc',
        '    for o in gc.get_objects():\n        if type(o).__name__ == "EventLog":\n            o.emit({})',
      ),
      /^line 4 adds gc\.get_objects\(\), a walk of every live object/,
    ],
    [
      'gc.get_referrers through an alias',
      calcWith('import gc as g', '    g.get_referrers(add)'),
      /gc\.get_referrers\(\)/,
    ],
    [
      'a from-import of get_objects',
      calcWith('from gc import get_objects', '    get_objects()'),
      /gc\.get_objects/,
    ],
    [
      'sys._getframe',
      calcWith('import sys', '    sys._getframe(2)'),
      /sys\._getframe\(\), a walk into the frames/,
    ],
    ['inspect.stack', calcWith('import inspect', '    inspect.stack()'), /inspect\.stack\(\)/],
    [
      'a frame walk through f_back',
      calcWith('import inspect', '    inspect.currentframe().f_back.f_locals["x"] = 1'),
      /inspect\.currentframe\(\)|f_back/,
    ],
    [
      'fork and exit',
      calcWith('import os', '    if os.fork() > 0:\n        os._exit(0)'),
      /line 4 adds os\.fork\(\) with os\._exit.*\(and 1 more\)/,
    ],
    [
      'os._exit under another name',
      calcWith('from os import _exit as leave', '    leave(0)'),
      /os\._exit\(\), which ends the test process/,
    ],
    [
      'libc’s _exit through ctypes',
      calcWith('import ctypes', '    ctypes.CDLL(None)._exit(0)'),
      /_exit\(\), which ends/,
    ],
    [
      'an exit handler',
      calcWith('import atexit', '    atexit.register(print, "ok")'),
      /atexit\.register, an exit handler/,
    ],
    ['sys.exitfunc', calcWith('import sys', '    sys.exitfunc = lambda: None'), /sys\.exitfunc/],
    ['getattr(os, "_exit")', calcWith('import os', '    getattr(os, "_exit")(0)'), /os\._exit\(\)/],
    ['__import__("gc").get_objects', calcWith('', '    __import__("gc").get_objects()'), /gc\.get_objects/],
    [
      'code run from a string',
      calcWith('', '    exec("import os; os._exit(0)")'),
      /exec\(\), code run from a string/,
    ],
    ['sys.exit in library code', calcWith('import sys', '    sys.exit(0)'), /sys\.exit\(\)/],
    [
      'importing pytest internals',
      calcWith('from _pytest import runner', '    runner.x = 1'),
      /a use of _pytest/,
    ],
    [
      'importing pytest',
      calcWith('import pytest', '    pytest.skip("later")'),
      /a use of pytest, the test framework/,
    ],
    ['importing unittest', calcWith('import unittest.mock', '    pass'), /a use of unittest\.mock/],
    [
      '__import__ of _pytest',
      calcWith('', '    __import__("_pytest.outcomes")'),
      /a use of _pytest\.outcomes/,
    ],
    ['sys.modules["pytest"]', calcWith('import sys', '    sys.modules["pytest"].skip()'), /a use of pytest/],
    ['suture’s plugin', calcWith('import suture_pytest_plugin', '    pass'), /a use of suture_pytest_plugin/],
    [
      'a patched builtin',
      calcWith('import builtins', '    builtins.AssertionError = Warning'),
      /`builtins\.AssertionError = Warning`, a change to builtins/,
    ],
    [
      'setattr on __builtins__',
      calcWith('', '    setattr(__builtins__, "len", lambda x: 0)'),
      /a change to builtins/,
    ],
    [
      'a printed result line',
      calcWith('import sys', '    sys.__stdout__.write("tests/test_calc.py::test_adds PASSED\\n")'),
      /"tests\/test_calc\.py::test_adds PASSED\\n", printed text that reads as a test result/,
    ],
    [
      'a report handed to a call',
      calcWith('import json', '    print(json.dumps({"nodeid": "t", "outcome": "passed"}))'),
      /reads as a test result/,
    ],
  ])('refuses %s', (_name, after, reason) => {
    expect(check('calc/core.py', CALC, after)).toMatch(reason);
  });

  it('refuses a value that equals anything, returned by the code under test', () => {
    const after = `class Anything(int):\n    def __eq__(self, other):\n        """Equal to all."""\n        return True\n\n    def __ne__(self, other):\n        return False\n\n\n${CALC.replace('return a - b', 'return Anything(a - b)')}`;
    expect(check('calc/core.py', CALC, after)).toMatch(
      /^line 2 adds `def __eq__` that answers the same for any value, so every equality check of it passes/,
    );
    // a real comparison is code, not a verdict
    const real = 'class Money:\n    def __eq__(self, other):\n        return self.cents == other.cents\n';
    expect(check('calc/money.py', undefined, real)).toBeUndefined();
    // tests may define matchers that equal anything (mock.ANY does)
    const matcher = 'class Any:\n    def __eq__(self, other):\n        return True\n';
    expect(check('tests/test_any.py', undefined, matcher)).toBeUndefined();
  });

  it('refuses the same in a new file, all of which is added', () => {
    expect(check('calc/helpers.py', undefined, 'import gc\nobjs = gc.get_objects()\n')).toMatch(
      /^line 2 adds gc\.get_objects/,
    );
  });

  it('refuses a frame walk, a gc walk and a fork-and-exit in a test file or a conftest too', () => {
    const test = 'def test_adds():\n    assert add(2, 3) == 5\n';
    expect(check('tests/test_calc.py', test, `import gc\n${test}gc.get_objects()\n`)).toMatch(
      /gc\.get_objects/,
    );
    expect(check('tests/conftest.py', '', 'import sys\nsys._getframe(1)\n')).toMatch(/sys\._getframe/);
    expect(check('tests/conftest.py', '', 'import suture_pytest_plugin\n')).toMatch(/suture_pytest_plugin/);
  });
});

describe('pythonTampering: near misses that pass', () => {
  it.each([
    [
      'a comment mentioning os._exit',
      calcWith('import os', '    # never call os._exit(0) here: it hides failures'),
    ],
    ['a string mentioning os._exit', calcWith('', '    message = "os._exit and gc.get_objects are refused"')],
    [
      'a docstring naming sys._getframe',
      calcWith('', '    """Unlike sys._getframe, this reads no frame."""'),
    ],
    ['a method of its own named exit', calcWith('', '    self.exit(0)\n    conn.fork()\n    model.eval()')],
    ['an attribute that only shares a name', calcWith('', '    tree.get_objects()\n    obj.stack()')],
    ['a plain fix', 'def add(a, b):\n    return a + b\n'],
    ['printing a result of its own', calcWith('', '    print("sum is", a + b)')],
  ])('passes %s', (_name, after) => {
    expect(check('calc/core.py', CALC, after)).toBeUndefined();
  });

  it('passes an unrelated fix to code that already forks and exits, as a multiprocessing library does', () => {
    const pool = [
      'import os',
      '',
      'def spawn(work):',
      '    pid = os.fork()',
      '    if pid == 0:',
      '        work()',
      '        os._exit(0)',
      '    return pid',
      '',
      'def size(xs):',
      '    return len(xs) - 1',
      '',
    ].join('\n');
    expect(check('pool/workers.py', pool, pool.replace('len(xs) - 1', 'len(xs)'))).toBeUndefined();
    // moving the kept fork into a helper is still the same fork
    const moved = pool.replace(
      'def spawn(work):\n    pid = os.fork()',
      'def _fork():\n    return os.fork()\n\ndef spawn(work):\n    pid = _fork()',
    );
    expect(check('pool/workers.py', pool, moved)).toBeUndefined();
    // but a second fork-and-exit in the fix is new
    expect(
      check(
        'pool/workers.py',
        pool,
        pool.replace('    return len(xs) - 1', '    os.fork()\n    return len(xs)'),
      ),
    ).toMatch(/line 11 adds os\.fork\(\) with os\._exit/);
  });

  it('passes a CLI that already exits, and a new exit where a program exits: __main__ and main()', () => {
    const cli = 'import sys\n\ndef run(argv):\n    if not argv:\n        sys.exit(2)\n    return 1\n';
    expect(check('tool/cli.py', cli, cli.replace('return 1', 'return 0'))).toBeUndefined();
    expect(
      check('tool/cli.py', cli, `${cli}\nif __name__ == "__main__":\n    sys.exit(run(sys.argv))\n`),
    ).toBeUndefined();
    expect(
      check('tool/cli.py', cli, `${cli}\ndef main():\n    sys.exit(run(sys.argv[1:]))\n`),
    ).toBeUndefined();
    expect(check('tool/__main__.py', 'import sys\n', 'import sys\nsys.exit(0)\n')).toBeUndefined();
    expect(
      check('tool/cli.py', cli, `${cli}\ndef exit(code):\n    return code\n\nexit(3)\n`),
    ).toBeUndefined();
  });

  it('refuses os._exit in a main() or a __main__.py, which the code under test can call or import', () => {
    const calc = 'import os\n\ndef add(a, b):\n    return a - b\n';
    expect(check('calc/core.py', calc, `${calc}\ndef main():\n    os._exit(0)\n`)).toMatch(
      /line 7 adds os\._exit/,
    );
    expect(check('calc/__main__.py', undefined, 'import os\nos._exit(0)\n')).toMatch(/line 2 adds os\._exit/);
    expect(
      check('calc/core.py', calc, `${calc}\nif __name__ == "__main__":\n    os._exit(0)\n`),
    ).toBeUndefined();
  });

  it('passes what tests do: importing pytest and patching builtins in a test or a conftest', () => {
    const test = 'def test_adds():\n    assert add(2, 3) == 5\n';
    expect(check('tests/test_calc.py', test, `import pytest\nimport builtins\n${test}`)).toBeUndefined();
    expect(
      check('tests/conftest.py', '', 'import pytest\nfrom _pytest.monkeypatch import MonkeyPatch\n'),
    ).toBeUndefined();
  });

  it('reads only Python files', () => {
    expect(check('README.md', '', 'import gc\ngc.get_objects()\n')).toBeUndefined();
  });
});
