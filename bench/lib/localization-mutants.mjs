// Seeded mutants for the localization benchmark: the functions of a source file (named the way the
// analyzers name them), and one-token bugs (a flipped comparison, an off-by-one, and/or swapped)
// inside their bodies.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Parser from 'tree-sitter';

const require = createRequire(import.meta.url);
const grammars = {
  python: require('tree-sitter-python'),
  cpp: require('tree-sitter-cpp'),
  javascript: require('tree-sitter-javascript'),
};
const parsers = {};
function parse(language, text) {
  parsers[language] ??= (() => {
    const p = new Parser();
    p.setLanguage(grammars[language]);
    return p;
  })();
  return parsers[language].parse(text, undefined, { bufferSize: text.length * 2 + 1 });
}

/** A small seeded generator (mulberry32): the same seed, the same mutants. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function shuffle(items, random) {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function pythonFunctions(tree) {
  const out = [];
  const unwrap = (n) => (n.type === 'decorated_definition' ? n.childForFieldName('definition') : n);
  for (const child of tree.rootNode.namedChildren) {
    const node = unwrap(child);
    const name = node?.childForFieldName('name')?.text;
    if (!name) continue;
    if (node.type === 'function_definition')
      out.push({ symbol: name, node: child, body: node.childForFieldName('body') });
    if (node.type === 'class_definition')
      for (const m of node.childForFieldName('body')?.namedChildren ?? []) {
        const fn = unwrap(m);
        const mname = fn?.type === 'function_definition' ? fn.childForFieldName('name')?.text : undefined;
        if (mname) out.push({ symbol: `${name}.${mname}`, node: m, body: fn.childForFieldName('body') });
      }
  }
  return out;
}

function cppName(declarator) {
  let d = declarator;
  while (d && d.type !== 'function_declarator') d = d.childForFieldName('declarator');
  const inner = d?.childForFieldName('declarator');
  if (!inner) return undefined;
  // `URI_FUNC(Name)(...)`: the name the macro is given
  if (inner.type === 'function_declarator') {
    const arg = inner.childForFieldName('parameters')?.namedChildren[0]?.text;
    return arg?.trim();
  }
  return inner.text.split('::').pop();
}

function cppFunctions(tree) {
  return tree.rootNode
    .descendantsOfType('function_definition')
    .map((fn) => ({
      symbol: cppName(fn.childForFieldName('declarator')),
      node: fn,
      body: fn.childForFieldName('body'),
    }))
    .filter((f) => f.symbol && f.body && /^~?\w+$/.test(f.symbol));
}

const JS_FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function']);
function jsFunctions(tree) {
  const out = [];
  const visit = (stmt) => {
    const node =
      stmt.type === 'export_statement'
        ? (stmt.childForFieldName('declaration') ?? stmt.namedChildren[0])
        : stmt;
    if (!node) return;
    if (node.type === 'function_declaration') {
      const name = node.childForFieldName('name')?.text;
      if (name) out.push({ symbol: name, node: stmt, body: node.childForFieldName('body') });
    } else if (node.type === 'lexical_declaration' || node.type === 'variable_declaration') {
      for (const d of node.namedChildren.filter((c) => c.type === 'variable_declarator')) {
        const value = d.childForFieldName('value');
        if (value && JS_FUNCTION_VALUES.has(value.type))
          out.push({
            symbol: d.childForFieldName('name').text,
            node: stmt,
            body: value.childForFieldName('body'),
          });
      }
    } else if (node.type === 'class_declaration') {
      const cname = node.childForFieldName('name')?.text;
      for (const m of node.childForFieldName('body')?.namedChildren ?? [])
        if (m.type === 'method_definition')
          out.push({
            symbol: `${cname}.${m.childForFieldName('name').text}`,
            node: m,
            body: m.childForFieldName('body'),
          });
    }
  };
  for (const c of tree.rootNode.namedChildren) visit(c);
  return out;
}

/** The functions of a file with their 1-based line ranges (the body's lines are where mutants go). */
export function functionsOf(language, text) {
  const tree = parse(language, text);
  const found =
    language === 'python'
      ? pythonFunctions(tree)
      : language === 'cpp'
        ? cppFunctions(tree)
        : jsFunctions(tree);
  return found
    .filter((f) => f.body)
    .map((f) => ({
      symbol: f.symbol,
      line: f.node.startPosition.row + 1,
      endLine: f.node.endPosition.row + 1,
      bodyLine: f.body.startPosition.row + 1,
    }));
}

const OPERATORS = [
  { name: 'flip <', from: / < /, to: ' <= ' },
  { name: 'flip <=', from: / <= /, to: ' < ' },
  { name: 'flip >', from: / > /, to: ' >= ' },
  { name: 'flip >=', from: / >= /, to: ' > ' },
  { name: 'flip ==', from: / == /, to: ' != ' },
  { name: 'flip !=', from: / != /, to: ' == ' },
  { name: 'off by one +', from: /([+-]) 1\b(?!\.)/, to: '$1 2' },
  { name: 'off by one [i]', from: /\[(\w+)\]/, to: '[$1 + 1]' },
  { name: 'and/or', from: / and /, to: ' or ' },
  { name: '&&/||', from: / && /, to: ' || ' },
];

const COMMENT = { python: /^\s*(#|"""|''')/, cpp: /^\s*(\/\/|\/\*|\*|#)/, javascript: /^\s*(\/\/|\/\*|\*)/ };

/** Every mutant of a file: a line in a function body where one operator applies. */
export function mutantsOf(root, file, language) {
  const text = readFileSync(join(root, file), 'utf8');
  const lines = text.split('\n');
  const out = [];
  for (const fn of functionsOf(language, text)) {
    for (let l = Math.max(fn.bodyLine, fn.line + 1); l <= fn.endLine; l++) {
      const line = lines[l - 1];
      if (!line || COMMENT[language].test(line) || line.includes('"') || line.includes("'")) continue;
      for (const op of OPERATORS) {
        if (op.name.includes('&&') && language === 'python') continue;
        if (op.name === 'and/or' && language !== 'python') continue;
        if (op.from.test(line))
          out.push({
            file,
            line: l,
            symbol: fn.symbol,
            fnLine: fn.line,
            fnEnd: fn.endLine,
            op: op.name,
            before: line,
            after: line.replace(op.from, op.to),
          });
      }
    }
  }
  return out;
}
