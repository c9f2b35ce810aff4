import { namesOf, throughLocals, type AssertionDetail, type TestFact, type TestFileModel } from './names.js';

export type BraceLanguage = 'js' | 'cpp';

/** Comments blanked (lines kept); string contents kept so changed expected strings still show. */
function strip(source: string): string {
  return source.replace(/(["'`])(?:\\.|(?!\1)[^\\])*?\1|\/\/[^\n]*|\/\*[^]*?\*\//g, (m: string) =>
    m.startsWith('/') ? m.replace(/[^\n]/g, ' ') : m,
  );
}

/** `#if 0` ... `#endif` regions, which the compiler never sees. */
function deadRegions(code: string): Array<[number, number]> {
  return [...code.matchAll(/^[ \t]*#\s*if\s+(?:0|false)\b[^]*?^[ \t]*#\s*endif\b/gm)].map((m) => [
    m.index,
    m.index + m[0].length,
  ]);
}

/** Index of the bracket closing the one at `open`, skipping strings. */
function closing(code: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '{': '}', '[': ']' };
  const stack: string[] = [];
  for (let i = open; i < code.length; i++) {
    const c = code[i]!;
    if (c === '"' || c === "'" || c === '`') {
      const end = /(["'`])(?:\\.|(?!\1)[^\\])*?\1/y;
      end.lastIndex = i;
      const m = end.exec(code);
      if (m) i += m[0].length - 1;
      continue;
    }
    if (pairs[c]) stack.push(pairs[c]);
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  return code.length - 1;
}

/** Open braces enclosing `at` within [from, at). */
function enclosing(code: string, from: number, at: number): number[] {
  const stack: number[] = [];
  const str = /(["'`])(?:\\.|(?!\1)[^\\])*?\1/y;
  for (let i = from; i < at; i++) {
    const c = code[i]!;
    if (c === '"' || c === "'" || c === '`') {
      str.lastIndex = i;
      const m = str.exec(code);
      if (m) i += m[0].length - 1;
      continue;
    }
    if (c === '{') stack.push(i);
    else if (c === '}') stack.pop();
  }
  return stack;
}

const STARTS = {
  js: /\b(?:expect|assert(?:\.\w+)?)\s*\(/g,
  cpp: /\b(?:(?:EXPECT|ASSERT)_\w+|TEST_ASSERT\w*|CHECK\w*|REQUIRE\w*|assert)\s*\(/g,
};
const STOPS = {
  js: /\breturn\b|\bprocess\.exit\s*\(/g,
  cpp: /\breturn\b|\bGTEST_SKIP\s*\(|\bTEST_IGNORE\w*\s*\(|\b(?:std::)?(?:_?exit|quick_exit|abort)\s*\(/g,
};
const FALSY = /\b(?:if|while)\s*\(\s*(?:false|0|!\s*true|!\s*1|null|nullptr|NULL|undefined)\s*\)\s*$/;
const WRAPS_FAILURE =
  /^(?:expect|EXPECT_(?:NONFATAL_FAILURE|FATAL_FAILURE|ANY_THROW|THROW|DEATH|EXIT)|ASSERT_(?:ANY_THROW|THROW|DEATH|EXIT))\b/;

/** The extent of an assertion: its call and, for expect, the chain after it. */
function extent(code: string, start: number, lang: BraceLanguage): number {
  let end = closing(code, code.indexOf('(', start));
  if (lang === 'js') {
    const chain = /^\s*(?:\.\s*\w+\s*)+(?=\()/;
    for (let m = chain.exec(code.slice(end + 1)); m; m = chain.exec(code.slice(end + 1)))
      end = closing(code, end + 1 + m[0].length);
    const tail = /^\s*(?:\.\s*\w+\s*)+/.exec(code.slice(end + 1));
    if (tail) end += tail[0].length;
  }
  return end;
}

function header(code: string, brace: number): string {
  const before = code.slice(Math.max(0, brace - 200), brace);
  return before
    .slice(Math.max(before.lastIndexOf(';'), before.lastIndexOf('}'), before.lastIndexOf('{')) + 1)
    .trim();
}

function disarmed(
  code: string,
  body: [number, number],
  at: number,
  dead: Array<[number, number]>,
  lang: BraceLanguage,
): string | undefined {
  if (dead.some(([a, b]) => at > a && at < b)) return 'it sits in an #if 0 block';
  const prefix = code.slice(Math.max(body[0], at - 60), at);
  if (FALSY.test(prefix.trimEnd())) return 'it sits in a branch that never runs';
  const stack = enclosing(code, body[0], at);
  for (const brace of stack.filter((b) => b !== body[0]).reverse()) {
    const head = header(code, brace);
    if (FALSY.test(head)) return `it sits in a branch that never runs (\`${head}\`)`;
    if (/\btry$/.test(head)) {
      const after = code.slice(closing(code, brace) + 1);
      const handler = /^\s*catch\s*(?:\([^)]*\))?\s*\{/.exec(after);
      if (handler) {
        const hb = closing(after, handler[0].length - 1);
        if (!/\bthrow\b/.test(after.slice(handler[0].length, hb))) return 'a try block swallows its failure';
      }
    }
    const fn = /(?:const|let|var|auto|function)\s+(\w+)\b[^]*$/.exec(head);
    if (fn && (/=>$/.test(head) || /\)$/.test(head))) {
      const rest = code.slice(body[0], body[1]).replace(head, '');
      if (!new RegExp(`\\b${fn[1]!}\\b`).test(rest))
        return `it sits in a function that is never called (${fn[1]!})`;
    }
  }
  for (const m of code.slice(body[0], at).matchAll(STOPS[lang])) {
    const p = body[0] + m.index;
    const s = enclosing(code, body[0], p);
    if (s.every((b, i) => stack[i] === b)) return `it comes after \`${m[0].trim()}\` and never runs`;
  }
  return undefined;
}

const TESTS = {
  js: /\b(x?(?:it|test))((?:\.\w+)*)\s*\(\s*(["'`])((?:\\.|(?!\3).)*)\3\s*,/g,
  cpp: /\bTEST(?:_F|_P)?\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)\s*\{|\bvoid\s+(test\w*)\s*\(\s*(?:void)?\s*\)\s*\{/g,
};
const MOCK =
  /\b(?:jest|vi)\.(?:mock|doMock|spyOn|unstable_mockModule|replaceProperty)\s*\(|\bmockImplementation\w*\s*\(|\bmockReturnValue\w*\s*\(|\bmockResolvedValue\w*\s*\(/g;
const REDEFINES = {
  js: /\b(?:const|let|var|function)\s+(?:expect|assert|test|it)\b|\b(?:global|globalThis)\.(?:expect|assert|test|it)\s*=|(?:^|[^.\w])(?:expect|assert)\s*=[^=]|\bexpect\.extend\s*\(|\bas\s+(?:expect|assert)\b/g,
  cpp: /^[ \t]*#\s*(?:define|undef)\s+\w+[^\n]*/gm,
};

const DECLARES =
  /\b(?:const|let|var|auto|int|long|double|float|bool|size_t|unsigned|char|std::string)\s+&?\s*([A-Za-z_]\w*)\s*=(?!=)\s*([^;]+);/g;

/** The names a body declares once with a value it never changes, to the text of the value. */
function localsOf(code: string): Map<string, string> {
  const out = new Map<string, string>();
  const declared = [...code.matchAll(DECLARES)];
  for (const [, name, value] of declared) {
    const writes = code.match(
      new RegExp(`(?:\\+\\+|--|&)\\s*${name}\\b|\\b${name}\\s*(?:[-+*/%&|^]?=(?!=)|\\+\\+|--)`, 'g'),
    );
    if (declared.filter((d) => d[1] === name).length === 1 && (writes?.length ?? 0) === 1)
      out.set(name!, value!.trim());
  }
  return out;
}

function assertionsIn(
  code: string,
  body: [number, number],
  dead: Array<[number, number]>,
  lang: BraceLanguage,
): AssertionDetail[] {
  const locals = localsOf(code.slice(body[0], body[1]));
  const spans: Array<[number, number, string]> = [];
  for (const a of code.slice(body[0], body[1]).matchAll(STARTS[lang])) {
    const at = body[0] + a.index;
    spans.push([at, extent(code, at, lang), a[0]]);
  }
  return spans.map(([at, end, kind]) => {
    const text = code.slice(at, end + 1).replace(/\s+/g, ' ');
    const outer = spans.find(([a, e, k]) => a < at && e >= end && WRAPS_FAILURE.test(k));
    // a wrapper that expects an assertion inside it to fail checks nothing of the code under test
    const wraps = spans.some(([a, e]) => a > at && e <= end) && WRAPS_FAILURE.test(kind);
    const why = outer
      ? `it is wrapped in \`${outer[2].replace(/\s*\($/, '')}\`, which passes when it fails`
      : wraps
        ? 'it expects an assertion inside it to fail'
        : disarmed(code, body, at, dead, lang);
    const own = namesOf(text);
    const read = throughLocals(text, locals);
    const args = /^\w+\s*\(\s*([^,]+?)\s*,\s*([^,]+?)\s*\)$/.exec(text);
    return {
      text,
      names: read.names,
      ...(read.inlined ? { inlined: read.inlined, calls: read.calls ?? [] } : {}),
      constant: own.length === 0 || (!!args && args[1] === args[2]),
      ...(why ? { disarmed: why } : {}),
    };
  });
}

/** The tests of a Jest/Vitest or GoogleTest/Unity file and their assertions. */
export function braceTestModel(source: string, lang: BraceLanguage): TestFileModel {
  const code = strip(source);
  const dead = deadRegions(code);
  const tests: TestFact[] = [];
  const found = [...code.matchAll(TESTS[lang])];
  for (const m of found) {
    const open = lang === 'js' ? code.indexOf('{', m.index + m[0].length) : m.index + m[0].length - 1;
    if (open < 0) continue;
    const close =
      lang === 'js' ? closing(code, code.lastIndexOf('(', m.index + m[0].length)) : closing(code, open);
    const name = lang === 'js' ? m[4]! : m[1] ? `${m[1]}.${m[2]!}` : m[3]!;
    const wrapper = lang === 'js' ? enclosing(code, 0, m.index).map((b) => header(code, b)) : [];
    const skipped =
      (lang === 'js' &&
        (m[1]!.startsWith('x') ||
          /\.(?:skip|todo|failing)\b/.test(m[2] ?? '') ||
          wrapper.some((h) => /\b(?:xdescribe|describe(?:\.\w+)*\.skip)\s*\(/.test(h)))) ||
      /\bDISABLED_/.test(name) ||
      /\bGTEST_SKIP\s*\(|\bTEST_IGNORE\w*\s*\(/.test(code.slice(open, close)) ||
      dead.some(([a, b]) => m.index > a && m.index < b);
    tests.push({ name, skipped, assertions: assertionsIn(code, [open, close], dead, lang) });
  }
  // a script that is its own test (node:test-less .mjs files): the whole file is the test's body
  if (found.length === 0)
    tests.push({
      name: '(file)',
      skipped: false,
      assertions: assertionsIn(code, [0, code.length], dead, lang),
    });
  const mocks = [...code.matchAll(MOCK)].map((m) => code.slice(m.index, code.indexOf('\n', m.index)).trim());
  const redefinitions = [...code.matchAll(REDEFINES[lang])].map((m) =>
    code.slice(m.index, code.indexOf('\n', m.index) < 0 ? undefined : code.indexOf('\n', m.index)).trim(),
  );
  return { tests, mocks, redefinitions };
}
