import { describe, expect, it } from 'vitest';
import { crashCause, failedAssertion, sanitizerCrash, terminateReason } from './crash-cause.js';

// Output as glibc 2.36, libstdc++ 12 and GCC 12's UBSan print it.
describe('failedAssertion', () => {
  it("reads glibc's message: program, file, line, function and condition", () => {
    expect(
      failedAssertion(
        "[ RUN      ] Guards.AssertsInCpp\nguards_test: /src/stack.c:5: stack_pop: Assertion `*size > 0' failed.\n",
      ),
    ).toEqual({
      reason: "Assertion `*size > 0' failed",
      frame: { file: '/src/stack.c', line: 5, fn: 'stack_pop' },
    });
  });

  it('keeps a C++ signature whole and reads the quotes of libstdc++ assertions', () => {
    expect(
      failedAssertion(
        "/usr/include/c++/12/bits/stl_vector.h:1123: std::vector<_Tp, _Alloc>::reference std::vector<_Tp, _Alloc>::operator[](size_type) [with _Tp = int; _Alloc = std::allocator<int>; reference = int&; size_type = long unsigned int]: Assertion '__n < this->size()' failed.",
      ),
    ).toMatchObject({
      reason: "Assertion `__n < this->size()' failed",
      frame: {
        file: '/usr/include/c++/12/bits/stl_vector.h',
        line: 1123,
        fn: expect.stringMatching(/operator\[\]/),
      },
    });
  });

  it('reads the musl and BSD formats', () => {
    expect(failedAssertion('Assertion failed: n > 0 (src/stack.c: stack_pop: 5)')).toEqual({
      reason: "Assertion `n > 0' failed",
      frame: { file: 'src/stack.c', line: 5, fn: 'stack_pop' },
    });
    expect(
      failedAssertion('Assertion failed: (n > 0), function stack_pop, file src/stack.c, line 5.'),
    ).toEqual({
      reason: "Assertion `n > 0' failed",
      frame: { file: 'src/stack.c', line: 5, fn: 'stack_pop' },
    });
  });

  it('finds none in a GoogleTest failure', () => {
    expect(failedAssertion('calc_test.cpp:9: Failure\nExpected equality of these values:')).toBeUndefined();
  });
});

describe('terminateReason', () => {
  it('names the exception and its what()', () => {
    expect(
      terminateReason(
        "terminate called after throwing an instance of 'std::runtime_error'\n  what():  zero is not allowed\n",
      ),
    ).toBe('terminate called after throwing std::runtime_error: zero is not allowed');
    expect(terminateReason("terminate called after throwing an instance of 'int'\n")).toBe(
      'terminate called after throwing int',
    );
    expect(terminateReason('terminate called without an active exception\n')).toBe(
      'terminate called without an active exception',
    );
  });
});

describe('sanitizerCrash and crashCause', () => {
  const ubsan =
    "/src/ub.cpp:2:36: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n";

  it('turns a UBSan error into a crash at its line, unless a GoogleTest assertion failed too', () => {
    expect(sanitizerCrash(ubsan)).toEqual({
      reason:
        "UndefinedBehaviorSanitizer: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'",
      frame: { file: '/src/ub.cpp', line: 2 },
    });
    expect(sanitizerCrash(`${ubsan}/src/ub_test.cpp:7: Failure\nExpected equality`)).toBeUndefined();
  });

  it('prefers the sanitizer report, then the assertion, then terminate, then a bare backtrace frame', () => {
    expect(
      crashCause("x: /s/a.c:3: f: Assertion `p' failed.\nterminate called without an active exception"),
    ).toMatchObject({ reason: "Assertion `p' failed" });
    expect(crashCause("terminate called after throwing an instance of 'E'\n")).toEqual({
      reason: 'terminate called after throwing E',
    });
    expect(crashCause('    #0 0x55e6 in step /src/walk.cpp:12:3\n')).toEqual({
      frame: { fn: 'step', file: '/src/walk.cpp', line: 12 },
    });
    expect(crashCause('[ RUN      ] Guards.Aborts\n')).toBeUndefined();
  });
});
