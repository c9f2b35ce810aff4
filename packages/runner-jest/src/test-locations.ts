import type { SyntaxNode, SyntaxTree } from '@suture/core/analysis';
import { ScriptCache } from './analyzer/js-model.js';
import { escapeRegex } from './ids.js';

/** A title Jest's name for a test must match. */
interface Title {
  re: RegExp;
  /** Characters the title spells out: with two fitting patterns, the one that spells out more wins. */
  fixed: number;
  /** The exact title, when it is written as a plain string. */
  text?: string;
}

/** A `test(...)` call of a test file, with the `describe` titles around it and the line Jest would report. */
export interface DeclaredTest {
  suites: Title[];
  title: Title;
  line: number;
  /** The timeout in ms given as the third argument, when it is a number literal. */
  timeout?: number;
}

const TESTS = new Set(['test', 'it', 'fit', 'xit', 'xtest']);
const SUITES = new Set(['describe', 'fdescribe', 'xdescribe']);
const MODIFIERS = new Set(['only', 'skip', 'concurrent', 'failing', 'todo', 'each', 'sequential']);
const ANY = '[\\s\\S]*?';
// jest-each placeholders: printf-style for array tables, `$name.path` for tagged-template tables
const PLACEHOLDER = /%[pPsdifjo#$]|\$[A-Za-z_][\w$]*(?:\.[\w$]+)*/;

function unescapeJs(sequence: string): string {
  const c = sequence.slice(1);
  const simple: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    b: '\b',
    f: '\f',
    v: '\v',
    '0': '\0',
    '\n': '',
    '\r\n': '',
  };
  if (c in simple) return simple[c]!;
  const hex = /^(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]+)\})$/.exec(c);
  return hex ? String.fromCodePoint(parseInt(hex[1] ?? hex[2] ?? hex[3]!, 16)) : c;
}

/** A title argument: a string or template literal, where `${...}` and `.each` placeholders match anything. */
function titleOf(node: SyntaxNode | undefined, each: boolean): Title {
  if (!node || (node.type !== 'string' && node.type !== 'template_string'))
    return { re: new RegExp(`^${ANY}$`), fixed: 0 };
  // literal pieces, with undefined for each `${...}`
  const pieces: Array<string | undefined> = [];
  for (const part of node.namedChildren) {
    if (part.type === 'string_fragment') pieces.push(part.text);
    else if (part.type === 'escape_sequence') pieces.push(unescapeJs(part.text));
    else pieces.push(undefined);
  }
  const literal = (piece: string): string =>
    each
      ? piece
          .split('%%')
          .map((p) => p.split(PLACEHOLDER).map(escapeRegex).join(ANY))
          .join('%')
      : escapeRegex(piece);
  const source = pieces.map((p) => (p === undefined ? ANY : literal(p))).join('');
  const text = pieces.every((p) => p !== undefined) ? pieces.join('') : undefined;
  const exact = text !== undefined && !(each && (PLACEHOLDER.test(text) || text.includes('%%')));
  const fixed = pieces.reduce(
    (n, p) => n + (p === undefined ? 0 : each ? p.split(PLACEHOLDER).join('').length : p.length),
    0,
  );
  return { re: new RegExp(`^${source}$`), fixed, ...(exact ? { text } : {}) };
}

/** A number literal's value (`30_000`, `3e4`), or undefined for anything else. */
function numberOf(node: SyntaxNode | undefined): number | undefined {
  if (node?.type !== 'number') return undefined;
  const value = Number(node.text.replace(/_/g, ''));
  return Number.isFinite(value) ? value : undefined;
}

/** `test`, `it.only`, `describe.each(table)`: what a call declares, or undefined when it is no Jest call. */
function jestCall(
  call: SyntaxNode,
): { kind: 'test' | 'suite'; title: Title; line: number; timeout?: number } | undefined {
  const fn = call.childForFieldName('function');
  const args = call.childForFieldName('arguments');
  if (!fn || args?.type !== 'arguments') return undefined;
  const each = fn.type === 'call_expression';
  const head = each ? fn.childForFieldName('function') : fn;
  if (!head) return undefined;
  const modifiers: string[] = [];
  let base: SyntaxNode | null = head;
  while (base?.type === 'member_expression') {
    modifiers.unshift(base.childForFieldName('property')?.text ?? '');
    base = base.childForFieldName('object');
  }
  if (
    base?.type !== 'identifier' ||
    each !== modifiers.includes('each') ||
    !modifiers.every((m) => MODIFIERS.has(m))
  )
    return undefined;
  const kind = TESTS.has(base.text) ? 'test' : SUITES.has(base.text) ? 'suite' : undefined;
  if (!kind) return undefined;
  // where V8 puts the call site, which is what Jest reports: the `(` of `test.each(t)(`, else the last name
  const at = each
    ? args
    : head.type === 'member_expression'
      ? (head.childForFieldName('property') ?? head)
      : head;
  const given = args.namedChildren.filter((n) => n.type !== 'comment');
  // test(name, fn, timeout): Jest's per-test timeout is the third argument
  const timeout = kind === 'test' && given.length >= 3 ? numberOf(given[given.length - 1]) : undefined;
  return {
    kind,
    title: titleOf(given[0], each),
    line: at.startPosition.row + 1,
    ...(timeout !== undefined ? { timeout } : {}),
  };
}

/** `jest.setTimeout(n)`: n, which then holds for the tests of the file. */
function setTimeoutCall(call: SyntaxNode): number | undefined {
  const fn = call.childForFieldName('function');
  if (fn?.type !== 'member_expression' || fn.text.replace(/\s/g, '') !== 'jest.setTimeout') return undefined;
  return numberOf(call.childForFieldName('arguments')?.namedChildren[0]);
}

/** Every test a file declares, with its enclosing `describe` titles. */
export function declaredTests(tree: SyntaxTree): DeclaredTest[] {
  const out: DeclaredTest[] = [];
  const visit = (node: SyntaxNode, suites: Title[]): void => {
    const call = node.type === 'call_expression' ? jestCall(node) : undefined;
    if (call?.kind === 'test') {
      out.push({
        suites,
        title: call.title,
        line: call.line,
        ...(call.timeout !== undefined ? { timeout: call.timeout } : {}),
      });
      return;
    }
    const inner = call?.kind === 'suite' ? [...suites, call.title] : suites;
    for (const child of node.namedChildren) visit(child, inner);
  };
  visit(tree.rootNode, []);
  return out;
}

const key = (titles: readonly string[]): string => titles.join('\0');

/**
 * Which of the tests of one full name in its file a test is (`index`, from 0, in Jest's order)
 * and how many Jest reported (`of`).
 */
export interface Nth {
  index: number;
  of: number;
}

/**
 * Finds the line of the test Jest names `ancestors` + `title`: the declaration whose titles match,
 * those written as plain strings first, then the pattern that spells out most of the name.
 * Declarations on different lines that fit equally well: no line rather than a guess, unless
 * there are as many of them as Jest reported tests of that name (`nth`), which then pair up in
 * their order.
 */
export function testLines(
  declared: readonly DeclaredTest[],
): (ancestors: readonly string[], title: string, nth?: Nth) => number | undefined {
  const exact = new Map<string, Set<number>>();
  const patterns: DeclaredTest[] = [];
  for (const d of declared) {
    const titles = [...d.suites, d.title];
    if (titles.every((t) => t.text !== undefined)) {
      const k = key(titles.map((t) => t.text!));
      exact.set(k, (exact.get(k) ?? new Set()).add(d.line));
    } else patterns.push(d);
  }
  const fixed = (d: DeclaredTest): number => [...d.suites, d.title].reduce((n, t) => n + t.fixed, 0);
  return (ancestors, title, nth) => {
    const hit = exact.get(key([...ancestors, title]));
    if (hit && hit.size === 1) return [...hit][0];
    if (hit) return nth && nth.of === hit.size ? [...hit].sort((a, b) => a - b)[nth.index] : undefined;
    const fits = patterns.filter(
      (d) =>
        d.suites.length === ancestors.length &&
        d.title.re.test(title) &&
        d.suites.every((s, i) => s.re.test(ancestors[i]!)),
    );
    if (fits.length === 0) return undefined;
    const best = Math.max(...fits.map(fixed));
    const lines = new Set(fits.filter((d) => fixed(d) === best).map((d) => d.line));
    return lines.size === 1 ? [...lines][0] : undefined;
  };
}

const cache = new ScriptCache();

/**
 * Where each test of a Jest report is declared, for the suites Jest gave no location for. Jest
 * reports them only with --testLocationInResults, which formats a source-mapped stack trace for
 * every test: on a suite of small tests that was a tenth of the run.
 */
export async function locateTests(
  suites: ReadonlyArray<{ name: string; assertionResults: ReadonlyArray<{ location?: unknown }> }>,
): Promise<(file: string, ancestors: readonly string[], title: string, nth?: Nth) => number | undefined> {
  const byFile = new Map<string, ReturnType<typeof testLines>>();
  await Promise.all(
    suites
      .filter((s) => s.assertionResults.some((a) => !a.location))
      .map(async (s) => {
        const parsed = await cache.forFile(s.name).parseFile(s.name);
        if (parsed) byFile.set(s.name, testLines(declaredTests(parsed.tree)));
      }),
  );
  return (file, ancestors, title, nth) => byFile.get(file)?.(ancestors, title, nth);
}

/** The longest `jest.setTimeout(n)` of a test file: it holds for every test of the file. */
function fileTimeout(tree: SyntaxTree): number | undefined {
  let longest: number | undefined;
  const visit = (node: SyntaxNode): void => {
    const n = node.type === 'call_expression' ? setTimeoutCall(node) : undefined;
    if (n !== undefined && n > (longest ?? 0)) longest = n;
    for (const child of node.namedChildren) visit(child);
  };
  visit(tree.rootNode);
  return longest;
}

/** The longest timeout a test file declares: a test's third argument or `jest.setTimeout(n)`. */
export function declaredTimeout(tree: SyntaxTree): number | undefined {
  const all = [...declaredTests(tree).map((d) => d.timeout), fileTimeout(tree)];
  const given = all.filter((n): n is number => n !== undefined && n > 0);
  return given.length > 0 ? Math.max(...given) : undefined;
}

/**
 * The timeout a test declares for itself: its third argument, or the file's `jest.setTimeout(n)`.
 * A test whose declaration cannot be told from the others' gets the longest the file declares.
 */
export function testTimeouts(
  tree: SyntaxTree,
): (ancestors: readonly string[], title: string) => number | undefined {
  const declared = declaredTests(tree);
  const lineOf = testLines(declared);
  const byLine = new Map<number, number>();
  for (const d of declared) if (d.timeout !== undefined) byLine.set(d.line, d.timeout);
  const fileWide = fileTimeout(tree);
  const longest = declaredTimeout(tree);
  return (ancestors, title) => {
    const line = lineOf(ancestors, title);
    if (line === undefined) return byLine.size > 0 ? longest : fileWide;
    return byLine.get(line) ?? fileWide;
  };
}

/** What the runner needs of a test file while Jest runs it: its tests' lines and the timeouts it declares. */
export interface TestFileFacts {
  lineOf: (ancestors: readonly string[], title: string) => number | undefined;
  /** The longest timeout the file declares. */
  timeout?: number;
  /** The timeout one test declares for itself (see `testTimeouts`). */
  timeoutOf: (ancestors: readonly string[], title: string) => number | undefined;
}

/** The facts of a test file by its absolute path; a file that cannot be read or parsed has none. */
export async function testFileFacts(absFile: string): Promise<TestFileFacts> {
  const parsed = await cache
    .forFile(absFile)
    .parseFile(absFile)
    .catch(() => undefined);
  if (!parsed) return { lineOf: () => undefined, timeoutOf: () => undefined };
  const timeout = declaredTimeout(parsed.tree);
  const lineOf = testLines(declaredTests(parsed.tree));
  return {
    lineOf,
    timeoutOf: testTimeouts(parsed.tree),
    ...(timeout !== undefined ? { timeout } : {}),
  };
}

/** Each test file's facts, read once per run: at once when ready (for limits), or awaited. */
export class FileFactsCache {
  private readonly pending = new Map<string, Promise<TestFileFacts>>();
  private readonly ready = new Map<string, TestFileFacts>();

  get(absFile: string): Promise<TestFileFacts> {
    let facts = this.pending.get(absFile);
    if (!facts) {
      facts = testFileFacts(absFile).then((f) => {
        this.ready.set(absFile, f);
        return f;
      });
      this.pending.set(absFile, facts);
    }
    return facts;
  }

  /** The facts if they have been read already. */
  now(absFile: string): TestFileFacts | undefined {
    return this.ready.get(absFile);
  }
}
