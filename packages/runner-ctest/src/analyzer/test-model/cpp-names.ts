import type { PlainNode as Node } from '@suture/core/analysis';
import { cleanText, collect, type Binding, type Constants, type Dialect } from '@suture/core/analysis';
import { boundOnce } from '@suture/core/analysis';

const ids = (n: Node | null | undefined): Node[] =>
  n
    ? collect(
        n,
        (x) => x.type === 'identifier',
        (x) =>
          /^(?:field_expression|subscript_expression|qualified_identifier|array_declarator)$/.test(x.type),
      )
    : [];

/** The name a declarator declares: `r` of `const auto& r`, `kCases` of `kCases[]`. */
function declared(d: Node | null): Node | undefined {
  let n = d;
  while (n && n.type !== 'identifier')
    n = n.childForFieldName('declarator') ?? n.namedChildren.at(-1) ?? null;
  return n ?? undefined;
}

/** Every name a C/C++ scope binds, with the value when it is an initialized declaration. */
export function cppBindings(scope: Node): Binding[] {
  const out: Binding[] = [];
  const none = (at: Node) => (id: Node) => out.push({ name: id.text, at });
  for (const n of collect(scope, (x) =>
    /^(?:declaration|assignment_expression|update_expression|parameter_declaration|for_range_loop|structured_binding_declarator|pointer_expression)$/.test(
      x.type,
    ),
  )) {
    if (n.type === 'declaration') {
      for (const d of n.childrenForFieldName('declarator')) {
        const name = declared(d.type === 'init_declarator' ? d.childForFieldName('declarator') : d);
        // `std::vector<int> v{1, 2}` keeps its initializer as the declarator's last child
        const value =
          d.type === 'init_declarator'
            ? (d.childForFieldName('value') ?? d.namedChildren.find((c) => c.type === 'initializer_list'))
            : undefined;
        if (name && d.type !== 'function_declarator')
          out.push({ name: name.text, at: d, ...(value ? { value } : {}) });
      }
    } else if (
      n.type === 'assignment_expression' &&
      n.childForFieldName('operator')?.text === '=' &&
      n.childForFieldName('left')?.type === 'identifier'
    )
      // `f = [](int, int) { return 5; }`: a parameter or variable given a value
      out.push({ name: n.childForFieldName('left')!.text, at: n, value: n.childForFieldName('right')! });
    else if (n.type === 'assignment_expression') ids(n.childForFieldName('left')).forEach(none(n));
    else if (n.type === 'update_expression') ids(n.childForFieldName('argument')).forEach(none(n));
    else if (n.type === 'pointer_expression' && n.childForFieldName('operator')?.text === '&')
      // an address taken may be written through
      ids(n.childForFieldName('argument')).forEach(none(n));
    else if (n.type === 'for_range_loop') ids(n.childForFieldName('declarator')).forEach(none(n));
    else if (n.type !== 'pointer_expression') ids(n.childForFieldName('declarator') ?? n).forEach(none(n));
  }
  return out;
}

/** A read of a variable: an identifier that is not the name of a qualified one or a declarator. */
export function cppVariable(n: Node): boolean {
  return n.type === 'identifier' && n.parent?.type !== 'qualified_identifier' && n.field !== 'declarator';
}

/** The rows of an initializer list (a name resolved through the constants or the body's locals). */
function rowsOf(expr: Node | null | undefined, k: Constants, d: Dialect): string[] | undefined {
  const n = expr?.type === 'identifier' ? k.get(expr.text) : expr;
  if (n?.type !== 'initializer_list') return undefined;
  return n.namedChildren.filter((c) => !d.comments.has(c.type)).map((c) => cleanText(c, d));
}

/** The rows that range-for loops holding an assertion walk: `for (auto [a, b, want] : kCases)`. */
export function cppCases(
  body: Node,
  checks: readonly Node[],
  k: Constants,
  d: Dialect,
): string[] | undefined {
  const rows: string[] = [];
  let any = false;
  const local = new Map(k);
  for (const [name, b] of boundOnce(body, { ...d, bindings: cppBindings })) local.set(name, b.value!);
  for (const loop of collect(body, (n) => n.type === 'for_range_loop')) {
    const inner = loop.childForFieldName('body')!;
    if (!checks.some((c) => c.startIndex >= inner.startIndex && c.endIndex <= inner.endIndex)) continue;
    const over = loop.childForFieldName('right')!;
    any = true;
    rows.push(...(rowsOf(over, local, d) ?? [cleanText(over, d)]));
  }
  return any ? rows : undefined;
}

const INSTANTIATE = /^(?:INSTANTIATE_TEST_SUITE_P|INSTANTIATE_TEST_CASE_P|INSTANTIATE_TYPED_TEST_SUITE_P)$/;

/**
 * The rows each value-parameterized suite runs: `INSTANTIATE_TEST_SUITE_P(Small, AddTest,
 * ::testing::Values(...))` gives every `TEST_P(AddTest, ...)` the values of `Values` (or of the
 * constant array `ValuesIn` names), each row prefixed by its instantiation; another generator
 * (`Range`, `Combine`) is one row, its text.
 */
export function cppInstantiations(root: Node, k: Constants, d: Dialect): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const call of collect(
    root,
    (n) => n.type === 'call_expression' && INSTANTIATE.test(n.childForFieldName('function')?.text ?? ''),
  )) {
    const [prefix, suite, generator] = call.childForFieldName('arguments')?.namedChildren ?? [];
    if (!prefix || !suite || !generator) continue;
    const name = generator.type === 'call_expression' ? generator.childForFieldName('function')!.text : '';
    const args = generator.childForFieldName('arguments')?.namedChildren ?? [];
    const values = /(?:^|::)Values$/.test(name)
      ? args.map((a) => cleanText(a, d))
      : /(?:^|::)ValuesIn$/.test(name)
        ? (rowsOf(args[0], k, d) ?? [cleanText(generator, d)])
        : [cleanText(generator, d)];
    out.set(suite.text, [...(out.get(suite.text) ?? []), ...values.map((v) => `${prefix.text}: ${v}`)]);
  }
  return out;
}

const SETUP = /^(?:SetUp|SetUpTestSuite|SetUpTestCase)$/;

/**
 * The fixtures whose set-up skips every test before it runs (`void SetUp() override { GTEST_SKIP(); }`,
 * in the class or defined as `CalcTest::SetUp`): each `TEST_F` of one is skipped; `*` when a
 * global environment the file registers skips, which skips every test.
 */
export function skippingFixtures(root: Node): Set<string> {
  const out = new Set<string>();
  for (const f of collect(root, (n) => n.type === 'function_definition')) {
    let d = f.childForFieldName('declarator');
    while (d && d.type !== 'function_declarator') d = d.childForFieldName('declarator');
    const parts = d?.childForFieldName('declarator')?.text.split('::') ?? [];
    if (!SETUP.test(parts.at(-1) ?? '')) continue;
    const skips = collect(
      f.childForFieldName('body') ?? f,
      (n) => n.type === 'call_expression' && n.childForFieldName('function')?.text === 'GTEST_SKIP',
    );
    if (skips.length === 0) continue;
    let owner = f.parent;
    while (owner && owner.type !== 'class_specifier' && owner.type !== 'struct_specifier')
      owner = owner.parent;
    const fixture = owner?.childForFieldName('name')?.text ?? parts.at(-2);
    if (fixture) out.add(fixture);
    // a global environment registered with GoogleTest sets up (and so skips) every test
    const base = owner?.namedChildren.find((c) => c.type === 'base_class_clause')?.text ?? '';
    if (/\bEnvironment\b/.test(base) && /\bAddGlobalTestEnvironment\s*\(/.test(root.text)) out.add('*');
  }
  return out;
}
