import type { SyntaxNode, SyntaxTree } from '@suture/core/analysis';
import { nestedNames } from './js-nested.js';
import { isSuiteCallback, suiteTitlePath, testTitlePath } from './test-title.js';

/** A name used in a function: a call `f()`, `obj.m()`, `new C()`, or a reference passed as a value. */
export interface JsUse {
  name: string;
  /** The object of a member call, as written: `this`, `mod`, `a.b`. */
  object?: string;
  /** 1-based lines it is used on (at most 20). */
  lines: number[];
}

export interface JsDef {
  /** `f`, `Class`, `Class.method`; `default` for an anonymous default export. */
  name: string;
  line: number;
  endLine: number;
  uses: JsUse[];
  /**
   * Functions defined inside it under a name a caller elsewhere can use: the methods of an object
   * it returns (`{ setValue(i) {...} }`), named inner functions. A call `x.setValue()` on an
   * object of unknown type may land there.
   */
  inner?: string[];
}

/** A `beforeEach`/`beforeAll`/`afterEach`/`afterAll` callback: it runs with every test of its suite. */
export interface JsHook {
  /** The titles of its enclosing suites joined by ` > `; empty at the top of the file. */
  suite: string;
  line: number;
  endLine: number;
  uses: JsUse[];
}

/** A `test(...)`/`it(...)` callback. */
export interface JsTest {
  /** Its own title as written (a `test.each` template keeps its `%s`). */
  title: string;
  /** Its suites' titles and its own, joined by ` > `: how frames in it are named. */
  path: string;
  line: number;
  endLine: number;
  uses: JsUse[];
}

/** What an import binds: a named export, `default`, or the whole module (`*`: a namespace, a `require`). */
export interface JsImport {
  source: string;
  name: string;
}

/** What a module exports under a name: one of its own names, or a name of another module. */
export interface JsExport {
  local?: string;
  source?: string;
  name?: string;
}

/** What the analyzer keeps of a JS/TS module: plain data, cached by content across runs. */
export interface JsModule {
  defs: JsDef[];
  tests: JsTest[];
  hooks: JsHook[];
  imports: Array<[string, JsImport]>;
  exports: Array<[string, JsExport]>;
  /** `export * from '...'`. */
  stars: string[];
}

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const MAX_LINES = 20;
const HOOKS = new Set(['beforeEach', 'beforeAll', 'afterEach', 'afterAll']);
function stringValue(node: SyntaxNode | null | undefined): string | undefined {
  if (!node || (node.type !== 'string' && node.type !== 'template_string')) return undefined;
  return node.text.slice(1, -1);
}

/** The module of `require('./m')`, the call itself. */
function requiredSource(node: SyntaxNode): string | undefined {
  if (node.type !== 'call_expression' || node.childForFieldName('function')?.text !== 'require')
    return undefined;
  return stringValue(node.childForFieldName('arguments')?.namedChildren[0]);
}

interface Span {
  uses: Map<string, JsUse>;
  start: number;
  end: number;
}

/** `module.exports`, `exports`, `module.exports.x`, `exports.x`: the exported name, '' for the whole. */
function commonJsTarget(left: SyntaxNode | null): string | undefined {
  const text = left?.text.replace(/\s+/g, '') ?? '';
  if (text === 'module.exports') return '';
  const m = /^(?:module\.)?exports\.(\w+)$/.exec(text);
  return m?.[1];
}

class Reader {
  readonly module: JsModule = { defs: [], tests: [], hooks: [], imports: [], exports: [], stars: [] };
  private readonly spans: Span[] = [];
  /** Names spread into `module.exports` (`{ ...ops }`), read as stars once the imports are known. */
  private readonly spreadNames: string[] = [];

  def(name: string, node: SyntaxNode, outer: SyntaxNode = node): void {
    const def: JsDef = {
      name,
      line: outer.startPosition.row + 1,
      endLine: outer.endPosition.row + 1,
      uses: [],
    };
    this.module.defs.push(def);
    this.spans.push({ uses: new Map(), start: node.startPosition.row, end: node.endPosition.row });
    (def as JsDef & { span?: Span }).span = this.spans[this.spans.length - 1];
  }

  /**
   * The functions and classes a statement declares, as defs named `prefix` + their names; returns
   * the names it binds.
   */
  declaration(node: SyntaxNode, outer: SyntaxNode, prefix = ''): string[] {
    const names: string[] = [];
    if (node.type === 'function_declaration' || node.type === 'generator_function_declaration') {
      const name = node.childForFieldName('name')?.text;
      if (name) {
        this.def(prefix + name, node, outer);
        names.push(name);
      }
    } else if (node.type === 'lexical_declaration' || node.type === 'variable_declaration') {
      for (const d of node.namedChildren.filter((c) => c.type === 'variable_declarator')) {
        const value = d.childForFieldName('value');
        const name = d.childForFieldName('name');
        if (name?.type !== 'identifier') continue;
        names.push(name.text);
        if (value && FUNCTION_VALUES.has(value.type)) this.def(prefix + name.text, value, outer);
        else if (value?.type === 'class') this.classBody(prefix + name.text, value, outer);
      }
    } else if (node.type === 'class_declaration' || node.type === 'abstract_class_declaration') {
      const name = node.childForFieldName('name')?.text;
      if (name) {
        this.classBody(prefix + name, node, outer);
        names.push(name);
      }
    }
    return names;
  }

  classBody(name: string, node: SyntaxNode, outer: SyntaxNode): void {
    this.def(name, node, outer);
    for (const m of node.childForFieldName('body')?.namedChildren ?? []) {
      const mname = m.childForFieldName('name')?.text;
      if ((m.type === 'method_definition' || m.type === 'method_signature') && mname)
        this.def(`${name}.${mname}`, m);
      const value =
        m.type === 'public_field_definition' || m.type === 'field_definition'
          ? m.childForFieldName('value')
          : null;
      if (mname && value && FUNCTION_VALUES.has(value.type)) this.def(`${name}.${mname}`, value, m);
    }
  }

  /** `module.exports = { a, b: impl, c() {} }` and `exports.x = ...`. */
  commonJs(stmt: SyntaxNode): void {
    const assign = stmt.type === 'expression_statement' ? stmt.namedChildren[0] : undefined;
    if (assign?.type !== 'assignment_expression') return;
    const target = commonJsTarget(assign.childForFieldName('left'));
    const right = assign.childForFieldName('right');
    if (target === undefined || !right) return;
    if (target !== '') {
      if (right.type === 'identifier') this.module.exports.push([target, { local: right.text }]);
      else if (FUNCTION_VALUES.has(right.type)) {
        this.def(target, right, stmt);
        this.module.exports.push([target, { local: target }]);
      } else if (
        right.type === 'call_expression' &&
        right.childForFieldName('function')?.text === 'require'
      ) {
        const source = stringValue(right.childForFieldName('arguments')?.namedChildren[0]);
        if (source) this.module.exports.push([target, { source, name: '*' }]);
      }
      return;
    }
    if (right.type === 'identifier') this.module.exports.push(['default', { local: right.text }]);
    else if (this.wholeModule(right)) return;
    else if (FUNCTION_VALUES.has(right.type) || right.type === 'class') {
      const name = right.childForFieldName('name')?.text ?? 'default';
      if (right.type === 'class') this.classBody(name, right, stmt);
      else this.def(name, right, stmt);
      this.module.exports.push(['default', { local: name }]);
    } else if (right.type === 'object') this.exportedObject(right);
  }

  /**
   * `module.exports = require('./ops')` and `Object.assign({}, require('./a'), b, { c })`: every
   * name another module exports is exported here too, as a star. False for any other value.
   */
  private wholeModule(value: SyntaxNode): boolean {
    const required = requiredSource(value);
    if (required) {
      this.module.stars.push(required);
      return true;
    }
    if (value.type !== 'call_expression' || value.childForFieldName('function')?.text !== 'Object.assign')
      return false;
    for (const arg of value.childForFieldName('arguments')?.namedChildren ?? []) {
      if (arg.type === 'object') this.exportedObject(arg);
      else if (arg.type === 'identifier') this.spreadNames.push(arg.text);
      else this.wholeModule(arg);
    }
    return true;
  }

  /** `{ a, b: impl, c() {}, ...require('./ops'), ...more }` assigned to `module.exports`. */
  private exportedObject(right: SyntaxNode): void {
    for (const p of right.namedChildren) {
      if (p.type === 'spread_element') {
        const arg = p.namedChildren[0];
        if (arg?.type === 'identifier') this.spreadNames.push(arg.text);
        else if (arg) this.wholeModule(arg);
      } else if (p.type === 'shorthand_property_identifier')
        this.module.exports.push([p.text, { local: p.text }]);
      else if (p.type === 'pair') {
        const key = p.childForFieldName('key')?.text.replace(/^['"]|['"]$/g, '');
        const value = p.childForFieldName('value');
        if (!key || !value) continue;
        if (value.type === 'identifier') this.module.exports.push([key, { local: value.text }]);
        else if (FUNCTION_VALUES.has(value.type)) {
          this.def(key, value, p);
          this.module.exports.push([key, { local: key }]);
        }
      } else if (p.type === 'method_definition') {
        const key = p.childForFieldName('name')?.text;
        if (key) {
          this.def(key, p);
          this.module.exports.push([key, { local: key }]);
        }
      }
    }
  }

  exportStatement(stmt: SyntaxNode): void {
    const source = stringValue(stmt.childForFieldName('source'));
    const declaration = stmt.childForFieldName('declaration');
    const isDefault = stmt.children.some((c) => c.type === 'default');
    if (declaration) {
      const names = this.declaration(declaration, stmt);
      for (const n of names) this.module.exports.push([isDefault ? 'default' : n, { local: n }]);
      if (isDefault && names.length === 0 && FUNCTION_VALUES.has(declaration.type)) {
        this.def('default', declaration, stmt);
        this.module.exports.push(['default', { local: 'default' }]);
      }
      return;
    }
    const value = stmt.childForFieldName('value');
    if (isDefault && value) {
      if (value.type === 'identifier') this.module.exports.push(['default', { local: value.text }]);
      else if (FUNCTION_VALUES.has(value.type) || value.type === 'class') {
        this.def('default', value, stmt);
        this.module.exports.push(['default', { local: 'default' }]);
      }
      return;
    }
    const clause = stmt.namedChildren.find((c) => c.type === 'export_clause');
    const namespace = stmt.namedChildren.find((c) => c.type === 'namespace_export');
    if (source && !clause) {
      const alias = namespace?.namedChildren[0]?.text;
      if (alias) this.module.exports.push([alias, { source, name: '*' }]);
      else this.module.stars.push(source);
      return;
    }
    for (const spec of clause?.namedChildren ?? []) {
      const name = spec.childForFieldName('name')?.text;
      const alias = spec.childForFieldName('alias')?.text ?? name;
      if (!name || !alias) continue;
      this.module.exports.push([alias, source ? { source, name } : { local: name }]);
    }
  }

  /** Spread names that are a whole required or imported module (`const more = require('./more')`). */
  spreads(): void {
    for (const name of this.spreadNames) {
      const binding = this.module.imports.find(([local]) => local === name)?.[1];
      if (binding?.name === '*' && !this.module.stars.includes(binding.source))
        this.module.stars.push(binding.source);
    }
  }

  imports(tree: SyntaxTree): void {
    const out = this.module.imports;
    for (const imp of tree.rootNode.descendantsOfType('import_statement')) {
      const source = stringValue(imp.childForFieldName('source'));
      if (!source) continue;
      for (const spec of imp.descendantsOfType('import_specifier')) {
        const name = spec.childForFieldName('name')?.text;
        const alias = spec.childForFieldName('alias')?.text ?? name;
        if (name && alias) out.push([alias, { source, name }]);
      }
      for (const clause of imp.descendantsOfType('import_clause')) {
        const def = clause.namedChildren.find((c) => c.type === 'identifier');
        if (def) out.push([def.text, { source, name: 'default' }]);
      }
      for (const ns of imp.descendantsOfType('namespace_import')) {
        const id = ns.namedChildren.find((c) => c.type === 'identifier');
        if (id) out.push([id.text, { source, name: '*' }]);
      }
    }
    for (const d of tree.rootNode.descendantsOfType('variable_declarator')) {
      let value = d.childForFieldName('value');
      let member: string | undefined;
      // `const x = require('./m').x`
      if (value?.type === 'member_expression') {
        member = value.childForFieldName('property')?.text;
        value = value.childForFieldName('object');
      }
      if (value?.type !== 'call_expression' || value.childForFieldName('function')?.text !== 'require')
        continue;
      const source = stringValue(value.childForFieldName('arguments')?.namedChildren[0]);
      const name = d.childForFieldName('name');
      if (!source || !name) continue;
      if (name.type === 'identifier') out.push([name.text, { source, name: member ?? '*' }]);
      for (const p of name.descendantsOfType('shorthand_property_identifier_pattern'))
        out.push([p.text, { source, name: p.text }]);
      for (const p of name.descendantsOfType('pair_pattern')) {
        const key = p.childForFieldName('key')?.text;
        const local = p.childForFieldName('value')?.text;
        if (key && local) out.push([local, { source, name: key }]);
      }
    }
  }

  /**
   * Test callbacks and hooks; and the functions and classes a `describe` callback declares for its
   * tests (a class decorated for them, a `setup()` helper), named by the suite's titles:
   * `Cart > setup`. Suites often declare the same name each, and a test sees its own suite's.
   */
  tests(tree: SyntaxTree): void {
    for (const cb of tree.rootNode.descendantsOfType([...FUNCTION_VALUES])) {
      const body = cb.childForFieldName('body');
      if (body?.type === 'statement_block' && isSuiteCallback(cb)) {
        const suite = testTitlePath(cb);
        if (suite !== undefined)
          for (const stmt of body.namedChildren) this.declaration(stmt, stmt, `${suite} > `);
        continue;
      }
      const call = cb.parent?.parent;
      const callee = call?.childForFieldName('function');
      if (callee?.type === 'identifier' && HOOKS.has(callee.text) && cb.parent?.type === 'arguments') {
        this.module.hooks.push({ suite: suiteTitlePath(cb), ...this.span(cb) });
        continue;
      }
      const path = testTitlePath(cb);
      const head = callee?.type === 'call_expression' ? callee.childForFieldName('function') : callee;
      const base = (head?.type === 'member_expression' ? head.childForFieldName('object') : head)?.text;
      if (path === undefined || (base !== 'test' && base !== 'it' && base !== 'fit' && base !== 'xit'))
        continue;
      const first = cb.parent?.namedChildren[0];
      const title = stringValue(first) ?? first?.text ?? '';
      this.module.tests.push({ title, path, ...this.span(cb) });
    }
  }

  /** Lines of a callback whose uses are collected with the rest (`uses` fills them in). */
  private span(cb: SyntaxNode): { line: number; endLine: number; uses: JsUse[] } {
    const span: Span = { uses: new Map(), start: cb.startPosition.row, end: cb.endPosition.row };
    this.spans.push(span);
    const item = { line: cb.startPosition.row + 1, endLine: cb.endPosition.row + 1, uses: [] };
    (item as { span?: Span }).span = span;
    return item;
  }

  uses(tree: SyntaxTree): void {
    const rows = tree.rootNode.endPosition.row;
    const owners = new Array<Span | null>(rows + 1).fill(null);
    for (const s of [...this.spans].sort((a, b) => a.start - b.start || b.end - a.end))
      for (let r = s.start; r <= s.end && r <= rows; r++) owners[r] = s;
    const add = (node: SyntaxNode, name: string, object?: string): void => {
      const span = owners[node.startPosition.row];
      if (!span) return;
      const key = `${object ?? ''}.${name}`;
      const line = node.startPosition.row + 1;
      const use = span.uses.get(key);
      if (!use) span.uses.set(key, { name, ...(object !== undefined ? { object } : {}), lines: [line] });
      else if (!use.lines.includes(line) && use.lines.length < MAX_LINES) use.lines.push(line);
    };
    for (const call of tree.rootNode.descendantsOfType(['call_expression', 'new_expression'])) {
      const fn = call.childForFieldName('function') ?? call.childForFieldName('constructor');
      if (fn?.type === 'identifier') add(call, fn.text);
      else if (fn?.type === 'member_expression') {
        const prop = fn.childForFieldName('property')?.text;
        const obj = fn.childForFieldName('object');
        if (prop && obj && /^(identifier|this|member_expression)$/.test(obj.type)) add(call, prop, obj.text);
      }
    }
    for (const id of tree.rootNode.descendantsOfType('identifier'))
      if (id.parent?.type !== 'member_expression' && id.parent?.type !== 'variable_declarator')
        add(id, id.text);
    const inner = nestedNames(tree, (row) => owners[row] ?? undefined);
    const finish = (item: { uses: JsUse[]; inner?: string[] } & { span?: Span }): void => {
      item.uses = [...(item.span?.uses.values() ?? [])];
      const names = item.span && inner.get(item.span);
      if (names && 'name' in item) item.inner = [...names];
      delete item.span;
    };
    for (const d of this.module.defs) finish(d);
    for (const t of this.module.tests) finish(t);
    for (const h of this.module.hooks) finish(h);
  }
}

/** Reads a parsed JS/TS module into a `JsModule`, in time linear in its size. */
export function summarizeScript(tree: SyntaxTree): JsModule {
  const reader = new Reader();
  for (const stmt of tree.rootNode.namedChildren) {
    if (stmt.type === 'export_statement') reader.exportStatement(stmt);
    else if (stmt.type === 'expression_statement') reader.commonJs(stmt);
    else reader.declaration(stmt, stmt);
  }
  reader.imports(tree);
  reader.spreads();
  reader.tests(tree);
  reader.uses(tree);
  return reader.module;
}
