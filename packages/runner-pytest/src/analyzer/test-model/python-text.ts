import {
  namesOf,
  throughLocals,
  type AssertionDetail,
  type TestFact,
  type TestFileModel,
} from '@suture/core/analysis';

interface Stmt {
  indent: number;
  text: string;
}

/** Comments and triple-quoted strings (docstrings) blanked: an assert moved into either is gone. */
function strip(source: string): string {
  return source.replace(
    /("""|''')[^]*?\1|(["'])(?:\\.|(?!\2)[^\n])*\2|#[^\n]*/g,
    (m, triple: string | undefined, quote: string | undefined) =>
      triple ? m.replace(/[^\n]/g, ' ') : quote ? m : ' '.repeat(m.length),
  );
}

/** Logical statements: lines joined while brackets are open, blank lines dropped. */
function statements(source: string): Stmt[] {
  const out: Stmt[] = [];
  let open = 0;
  let current: Stmt | undefined;
  for (const line of strip(source).split(/\r?\n/)) {
    if (!current) {
      if (!line.trim()) continue;
      current = { indent: line.length - line.trimStart().length, text: line.trim() };
    } else current.text += ` ${line.trim()}`;
    const bare = line.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '');
    open += (bare.match(/[([{]/g) ?? []).length - (bare.match(/[)\]}]/g) ?? []).length;
    if (open <= 0 && !/\\$/.test(line)) {
      open = 0;
      out.push(current);
      current = undefined;
    }
  }
  if (current) out.push(current);
  return out;
}

const ASSERTION = /^(?:assert\b|self\.assert\w*\s*\(|(?:\w+\.)*assert_\w*\s*\(|with\s+pytest\.raises\s*\()/;
const FALSY =
  /^\(?\s*(?:False|0|0\.0|None|""|''|not\s+True|not\s+1|1\s*==\s*0|0\s*==\s*1|False\s+and\b.*|.*\band\s+False)\s*\)?$/;
const SWALLOWS = /\b(?:AssertionError|Exception|BaseException)\b/;
const STOPS =
  /^(?:return\b|pytest\.skip\s*\(|pytest\.xfail\s*\(|self\.skipTest\s*\(|sys\.exit\s*\(|os\._exit\s*\(|raise\s+SystemExit\b|raise\s+unittest\.SkipTest\b|raise\s+pytest\.skip\.Exception\b)/;
const SKIP_MARK =
  /@(?:pytest\.mark\.(?:skip|skipif|xfail)|unittest\.(?:skip\w*|expectedFailure))\b|^pytestmark\b.*\b(?:skip|xfail)/;
const MOCK =
  /(?:^@|\b)(?:mock\.patch|patch(?:\.object|\.dict)?|monkeypatch\.(?:setattr|setitem|delattr|syspath_prepend)|mocker\.patch(?:\.object)?|mocker\.spy)\s*\(/;
const REDEFINES =
  /^(?:def\s+(?:assert\w*|assertEqual|assertTrue)\s*\(|(?:\w+\.)*(?:assert\w*|AssertionError|raises)\s*=[^=]|(?:builtins\.)?AssertionError\s*=[^=]|import\s+.*\bas\s+(?:assert\w*|pytest)\b|from\s+\S+\s+import\s+.*\bas\s+(?:assert\w*|raises)\b)/;

function disarmedBy(body: Stmt[], at: number): string | undefined {
  const self = body[at]!;
  // an enclosing header: walk back to each line less indented than the last one seen
  let indent = self.indent;
  for (let i = at - 1; i >= 0; i--) {
    const s = body[i]!;
    if (s.indent >= indent) {
      if (
        s.indent <= self.indent &&
        STOPS.test(s.text) &&
        body.slice(i + 1, at).every((b) => b.indent >= s.indent)
      )
        return `it comes after \`${s.text.slice(0, 40)}\` and never runs`;
      continue;
    }
    indent = s.indent;
    const cond = /^(?:if|elif|while)\s+(.*):$/.exec(s.text);
    if (cond && FALSY.test(cond[1]!.trim())) return `it sits in a branch that never runs (\`${s.text}\`)`;
    if (
      /^with\b.*\b(?:raises|suppress)\s*\((?:[^)]*\b(?:AssertionError|Exception|BaseException)\b)/.test(
        s.text,
      )
    )
      return `\`${s.text}\` swallows its failure`;
    if (/^def\s/.test(s.text)) {
      const name = /^def\s+(\w+)/.exec(s.text)?.[1] ?? '';
      const called = body.some((b, j) => j !== i && new RegExp(`\\b${name}\\b`).test(b.text));
      if (!called) return `it sits in a function that is never called (${name})`;
    }
    if (s.text === 'try:') {
      for (let j = at + 1; j < body.length && body[j]!.indent >= s.indent; j++) {
        const h = body[j]!;
        if (h.indent !== s.indent) continue;
        if (!/^except\b/.test(h.text)) {
          if (/^(?:else|finally)\s*:/.test(h.text)) continue;
          break;
        }
        const handler = body
          .slice(j + 1)
          .filter((_, k, all) => all.slice(0, k + 1).every((x) => x.indent > s.indent));
        const rethrows = handler.some((x) => /^raise\b/.test(x.text));
        if ((/^except\s*:/.test(h.text) || SWALLOWS.test(h.text)) && !rethrows)
          return `a try block swallows its failure (\`${h.text}\`)`;
      }
    }
  }
  return undefined;
}

/** `with pytest.raises(E):` asserts on its block: the block is part of what it checks. */
function withBlock(body: Stmt[], at: number): Stmt {
  const head = body[at]!;
  if (!/^with\b/.test(head.text)) return head;
  const block: string[] = [];
  for (let j = at + 1; j < body.length && body[j]!.indent > head.indent; j++) block.push(body[j]!.text);
  return { indent: head.indent, text: [head.text, ...block].join(' ; ') };
}

/** `with pytest.raises(AssertionError):` around an assert passes exactly when the assert fails. */
function expectsFailure(body: Stmt[], at: number): string | undefined {
  const head = body[at]!;
  if (
    !/^with\b.*\b(?:raises|suppress)\s*\([^)]*\b(?:AssertionError|Exception|BaseException)\b/.test(head.text)
  )
    return undefined;
  for (let j = at + 1; j < body.length && body[j]!.indent > head.indent; j++)
    if (ASSERTION.test(body[j]!.text)) return `\`${head.text}\` passes when the assertion in it fails`;
  return undefined;
}

/** The names a test body binds once, by a plain `name = value`, to the text of the value. */
function localsOf(body: readonly Stmt[]): Map<string, string> {
  const seen = new Map<string, string | null>();
  for (const b of body) {
    const plain = /^([A-Za-z_]\w*)\s*(?::[^=]+)?=(?!=)\s*(.+)$/.exec(b.text);
    const other = [
      ...b.text.matchAll(
        /^([A-Za-z_]\w*)\s*(?:[-+*/%&|^@]|\/\/|\*\*|>>|<<)=|^(?:async\s+)?for\s+([\w\s,()]+?)\s+in\b|\bas\s+([A-Za-z_]\w*)|\b(?:global|nonlocal)\s+([\w\s,]+)|([A-Za-z_]\w*)\s*:=/g,
      ),
    ].flatMap((m) =>
      m
        .slice(1)
        .filter(Boolean)
        .join(' ')
        .split(/[\s,()]+/)
        .filter(Boolean),
    );
    if (plain) seen.set(plain[1]!, seen.has(plain[1]!) ? null : plain[2]!);
    for (const n of other) seen.set(n, null);
  }
  return new Map([...seen].filter((e): e is [string, string] => e[1] !== null));
}

function fact(
  stmt: Stmt,
  disarmed: string | undefined,
  locals: ReadonlyMap<string, string>,
): AssertionDetail {
  const text = stmt.text.replace(/\s+/g, ' ');
  const expr = text.replace(/^assert\s+/, '').replace(/,\s*(["']).*$/, '');
  const sides = /^(.+?)\s*(?:==|is)\s*(.+)$/.exec(expr);
  const own = namesOf(text.startsWith('with') ? text : expr);
  const read = throughLocals(text.startsWith('with') ? text : expr, locals);
  const names = [...new Set([...own, ...read.names])];
  return {
    text,
    names,
    ...(read.inlined
      ? {
          inlined: text.startsWith('with') ? read.inlined : text.replace(expr, read.inlined),
          calls: read.calls ?? [],
        }
      : {}),
    constant: own.length === 0 || (!!sides && sides[1]!.trim() === sides[2]!.trim()),
    ...(disarmed ? { disarmed } : {}),
  };
}

/** The tests of a pytest or unittest file and their assertions, read from its statements. */
export function pythonTestModel(source: string): TestFileModel {
  const stmts = statements(source);
  const tests: TestFact[] = [];
  const mocks = stmts.filter((s) => MOCK.test(s.text)).map((s) => s.text);
  const redefinitions = stmts.filter((s) => REDEFINES.test(s.text)).map((s) => s.text);
  const moduleSkip = stmts.some((s) => s.indent === 0 && /^pytestmark\b.*\b(?:skip|xfail)/.test(s.text));
  const classes: Array<{ indent: number; name: string; skipped: boolean }> = [];
  for (const [i, s] of stmts.entries()) {
    while (classes.length > 0 && classes[classes.length - 1]!.indent >= s.indent && !s.text.startsWith('@'))
      classes.pop();
    const decorators: string[] = [];
    for (let j = i - 1; j >= 0 && stmts[j]!.text.startsWith('@') && stmts[j]!.indent === s.indent; j--)
      decorators.push(stmts[j]!.text);
    const cls = /^class\s+(\w+)/.exec(s.text);
    if (cls) {
      classes.push({ indent: s.indent, name: cls[1]!, skipped: decorators.some((d) => SKIP_MARK.test(d)) });
      continue;
    }
    const def = /^(?:async\s+)?def\s+(test\w*)\s*\(/.exec(s.text);
    if (!def) continue;
    const body: Stmt[] = [];
    for (let j = i + 1; j < stmts.length && stmts[j]!.indent > s.indent; j++) body.push(stmts[j]!);
    const owner = classes[classes.length - 1];
    const locals = localsOf(body);
    tests.push({
      name: owner ? `${owner.name}.${def[1]!}` : def[1]!,
      skipped:
        moduleSkip ||
        !!owner?.skipped ||
        decorators.some((d) => SKIP_MARK.test(d)) ||
        body.some((b) => /^(?:pytest\.(?:skip|xfail)|self\.skipTest)\s*\(/.test(b.text)),
      assertions: body.flatMap((b, k) =>
        ASSERTION.test(b.text)
          ? [fact(withBlock(body, k), disarmedBy(body, k) ?? expectsFailure(body, k), locals)]
          : [],
      ),
    });
  }
  return { tests, mocks, redefinitions };
}
