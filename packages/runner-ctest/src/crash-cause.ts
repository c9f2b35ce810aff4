import { faultingFrame, sanitizerError } from './ctest-output.js';

export interface CrashFrame {
  file: string;
  line: number;
  fn?: string;
}

export interface CrashCause {
  /** What stopped the program, as its output says: the failed assertion, the uncaught exception, the sanitizer report. */
  reason?: string;
  /** Where the output says the program stopped, when it says. */
  frame?: CrashFrame;
}

// glibc: `prog: src/stack.c:5: stack_pop: Assertion `n > 0' failed.` (no function when unknown);
// libstdc++'s own checks (_GLIBCXX_ASSERTIONS) quote the condition with ' on both sides
const GLIBC_ASSERT = /^(?:[^\s:]+: )?(\S+?):(\d+): (?:(.+?): )?Assertion [`'](.*)' failed\.$/m;
// musl: `Assertion failed: n > 0 (src/stack.c: stack_pop: 5)`
const MUSL_ASSERT = /^Assertion failed: (.*) \((\S+?): (.+?): (\d+)\)$/m;
// BSD and macOS: `Assertion failed: (n > 0), function stack_pop, file src/stack.c, line 5.`
const BSD_ASSERT = /^Assertion failed: \((.*)\), function (.+?), file (\S+?), line (\d+)\.$/m;

/** A C `assert()` that failed, in the message format of glibc, musl or the BSD libc. */
export function failedAssertion(output: string): CrashCause | undefined {
  const glibc = GLIBC_ASSERT.exec(output);
  if (glibc)
    return {
      reason: `Assertion \`${glibc[4]}' failed`,
      frame: { file: glibc[1]!, line: Number(glibc[2]), ...(glibc[3] ? { fn: glibc[3] } : {}) },
    };
  const musl = MUSL_ASSERT.exec(output);
  if (musl)
    return {
      reason: `Assertion \`${musl[1]}' failed`,
      frame: { file: musl[2]!, line: Number(musl[4]), fn: musl[3]! },
    };
  const bsd = BSD_ASSERT.exec(output);
  if (bsd)
    return {
      reason: `Assertion \`${bsd[1]}' failed`,
      frame: { file: bsd[3]!, line: Number(bsd[4]), fn: bsd[2]! },
    };
  return undefined;
}

/**
 * Why `std::terminate` ended the program, from the message libstdc++'s verbose terminate handler
 * prints: an exception that left a `noexcept` function or a thread, or a thread destroyed while
 * still joinable. The output never says where; the test's own location stands for it.
 */
export function terminateReason(output: string): string | undefined {
  const thrown = /^terminate called after throwing an instance of '(.+?)'$(?:\n\s+what\(\):\s+(.*)$)?/m.exec(
    output,
  );
  if (thrown)
    return `terminate called after throwing ${thrown[1]}${thrown[2] ? `: ${thrown[2].trim()}` : ''}`;
  return /^terminate called (without an active exception|recursively)$/m.exec(output)?.[0];
}

/** UndefinedBehaviorSanitizer's `file:line:col: runtime error: message`, which names the faulting line. */
export function undefinedBehavior(output: string): CrashCause | undefined {
  const m = /^(\S+?):(\d+):\d+: runtime error: (.+)$/m.exec(output);
  if (!m) return undefined;
  return {
    reason: `UndefinedBehaviorSanitizer: ${m[3]!.trim()}`,
    frame: { file: m[1]!, line: Number(m[2]) },
  };
}

/**
 * A sanitizer report. Sanitizers end a test with exit code 1 by default, which CTest calls failed,
 * or abort it with `abort_on_error=1`; either way the sanitizer, not an assertion of the test,
 * stopped the program. UBSan in its default recover mode only warns, so its error counts when no
 * GoogleTest assertion failed as well.
 */
export function sanitizerCrash(output: string): CrashCause | undefined {
  const report = sanitizerError(output);
  if (report) {
    const frame = faultingFrame(output);
    return { reason: report, ...(frame ? { frame } : {}) };
  }
  return /^(?:.+?:\d+|unknown file): Failure$/m.test(output) ? undefined : undefinedBehavior(output);
}

/**
 * What made a test program stop abnormally (a signal, `abort()`), read from its output: a sanitizer
 * report, a failed C assertion, `std::terminate`, a UBSan error, or a backtrace's top frame. A bare
 * `std::abort()` prints nothing, so it has no cause.
 */
export function crashCause(output: string): CrashCause | undefined {
  const found = sanitizerCrash(output) ?? failedAssertion(output);
  if (found) return found;
  const terminate = terminateReason(output);
  if (terminate) return { reason: terminate };
  const frame = faultingFrame(output);
  return frame ? { frame } : undefined;
}
