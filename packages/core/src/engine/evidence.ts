import { sep } from 'node:path';

/** The most evidence a fix request carries; test output longer than this keeps its head and tail. */
export const EVIDENCE_CHARS = 4_000;
export const EVIDENCE_LINES = 200;

/** Lines a test framework prints around every result, which tell a model nothing. */
const BANNERS: readonly RegExp[] = [
  // GoogleTest
  /^Running main\(\) from /,
  /^Note: Google Test filter = /,
  /^\[(==========|----------| RUN {6}| {7}OK | {2}PASSED {2}| {2}FAILED {2}| {2}SKIPPED | DISABLED )\]/,
  /^ ?\d+ FAILED TESTS?$/,
  /^ *YOU HAVE \d+ DISABLED TESTS?$/,
  // CTest
  /^Test project \//,
  /^\s*Start\s+\d+: /,
  /^\s*\d+\/\d+ Test\s+#\d+: /,
  /^\d+% tests passed, \d+ tests? failed out of \d+/,
  /^Total Test time \(real\)/,
  /^The following tests FAILED:/,
  /^Errors while running CTest/,
  /^Output from these tests are in: /,
  /^Use "--rerun-failed --output-on-failure"/,
  // pytest's section rules carry no text of their own
  /^={5,}( .* )?={5,}$/,
];

/** A stack frame of a dependency or the runtime: node_modules, site-packages, node internals. */
const FOREIGN_FRAME =
  /^\s*at .*(node_modules[\\/]|node:internal|<anonymous>|\(native\)|internal\/process)|^\s*at (new Promise|processTicksAndRejections|process\.processTicksAndRejections)\b/;
const PY_FRAME = /^\s*File "([^"]+)", line \d+/;
const PY_FOREIGN = /[\\/](site-packages|dist-packages|lib[\\/]python\d[\d.]*)[\\/]|^<frozen /;

/** Timings change from run to run; a request must not. */
function dropTimings(line: string): string {
  return line
    .replace(/ \(\d+(\.\d+)? ?(ms|s|sec)\)/g, '')
    .replace(/ in \d+(\.\d+)?s\b/g, '')
    .replace(/\b0x[0-9a-f]{6,16}\b/gi, '0x…');
}

/**
 * Test output as a model should read it: paths relative to the project root, no stack frames of
 * dependencies or the runtime, no framework banners or timings, blank runs collapsed, and at most
 * `EVIDENCE_CHARS` (head and tail kept, the middle marked as omitted).
 */
export function cleanEvidence(text: string, root?: string, maxChars = EVIDENCE_CHARS): string {
  let body = text.replace(/\r\n/g, '\n');
  if (root) {
    const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
    body = body.split(prefix).join('');
  }
  const out: string[] = [];
  let skipPySource = false;
  for (const raw of body.split('\n')) {
    const line = dropTimings(raw.replace(/\s+$/, ''));
    if (skipPySource) {
      skipPySource = false;
      if (/^\s{4,}\S/.test(line) && !PY_FRAME.test(line)) continue;
    }
    const py = PY_FRAME.exec(line);
    if (py && (PY_FOREIGN.test(py[1]!) || (root && py[1]!.startsWith('/')))) {
      skipPySource = true;
      continue;
    }
    if (FOREIGN_FRAME.test(line) || BANNERS.some((b) => b.test(line))) continue;
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return bound(out, maxChars);
}

function bound(lines: string[], maxChars: number): string {
  let kept = lines;
  if (kept.length > EVIDENCE_LINES) {
    const dropped = kept.length - EVIDENCE_LINES;
    kept = [...kept.slice(0, 20), `[... ${dropped} lines omitted ...]`, ...kept.slice(20 + dropped)];
  }
  const text = kept.join('\n');
  if (text.length <= maxChars) return text;
  // The head says what broke first; the tail holds the assertion and where it failed.
  const head = text.slice(0, Math.floor(maxChars / 3));
  const tail = text.slice(text.length - Math.floor((maxChars * 2) / 3));
  const cutHead = head.slice(0, head.lastIndexOf('\n') + 1 || head.length);
  const cutTail = tail.slice(tail.indexOf('\n') + 1);
  return `${cutHead}[... ${text.length - cutHead.length - cutTail.length} characters omitted ...]\n${cutTail}`;
}
