import { join, posix } from 'node:path';
import { mergeScopeEntries, walkGraph, type CodeEdge, type CodeNode } from '@suture/core/analysis';
import { type Failure, type ProjectInfo, type ScopeEntry, type ScopeInput } from '@suture/core';
import { testSymbol } from './analyze.js';
import {
  calls,
  definitions,
  imports,
  parentDirs,
  resolveModule,
  type createPythonCache,
} from './python-model.js';
import { isPythonTestFile } from './test-files.js';

type Cache = ReturnType<typeof createPythonCache>;

const BUILTINS = new Set([
  'print',
  'len',
  'range',
  'str',
  'int',
  'float',
  'list',
  'dict',
  'set',
  'tuple',
  'sum',
  'min',
  'max',
  'sorted',
  'isinstance',
  'super',
  'self',
  'abs',
  'round',
  'enumerate',
  'zip',
  'map',
  'filter',
  'any',
  'all',
  'open',
  'repr',
  'type',
  'bool',
  'True',
  'False',
  'None',
]);

/** Outgoing edges of a function: the definitions it calls, in this file or through its imports. */
async function expand(root: string, node: CodeNode, cache: Cache): Promise<CodeEdge[]> {
  const parsed = await cache.parseFile(join(root, node.file));
  if (!parsed) return [];
  const defs = definitions(parsed.tree);
  const body = node.symbol ? defs.get(node.symbol) : parsed.tree.rootNode;
  if (!body) return [];
  const binds = imports(parsed.tree);
  const edges: CodeEdge[] = [];
  const from = node.symbol ?? node.file;
  const className = node.symbol?.includes('.') ? node.symbol.split('.')[0] : undefined;
  // Methods called on objects of unknown type (`cart.total()` on a fixture) are matched against
  // the classes this module defines or imports.
  const classes = await knownClasses(root, node.file, defs, binds, cache);
  for (const call of calls(body)) {
    if (BUILTINS.has(call.name) && !call.object) continue;
    if (!call.object && defs.has(call.name) && call.name !== node.symbol) {
      edges.push({
        to: { file: node.file, symbol: call.name },
        role: 'source',
        reason: `${from} calls ${call.name}`,
      });
      continue;
    }
    if (call.object === 'self' && className && defs.has(`${className}.${call.name}`)) {
      edges.push({
        to: { file: node.file, symbol: `${className}.${call.name}` },
        role: 'source',
        reason: `${from} calls self.${call.name}`,
      });
      continue;
    }
    const binding = binds.get(call.object ?? call.name);
    if (!binding) {
      if (call.object && call.object !== 'self') {
        for (const cls of classes) {
          if (cls.methods.has(call.name))
            edges.push({
              to: { file: cls.file, symbol: `${cls.name}.${call.name}` },
              role: 'source',
              reason: `${from} calls ${call.object}.${call.name} (a ${cls.name} method)`,
            });
        }
      }
      continue;
    }
    const target = await resolveModule(root, node.file, binding);
    if (!target) continue;
    // `from m import f; f()` -> f in m; `import m; m.f()` -> f in m; `from pkg import mod; mod.f()` -> f in mod
    const symbol = call.object ? call.name : binding.name;
    const targetDefs = (await cache.parseFile(join(root, target)))?.tree;
    const known = targetDefs ? definitions(targetDefs) : new Map();
    const sym = symbol && known.has(symbol) ? symbol : undefined;
    edges.push({
      to: { file: target, ...(sym ? { symbol: sym } : {}) },
      role: 'source',
      reason: `${from} calls ${call.object ? `${call.object}.` : ''}${call.name} (imported from ${binding.module || '.'})`,
    });
  }
  return edges;
}

interface KnownClass {
  file: string;
  name: string;
  methods: Set<string>;
}

async function knownClasses(
  root: string,
  file: string,
  defs: ReturnType<typeof definitions>,
  binds: ReturnType<typeof imports>,
  cache: Cache,
): Promise<KnownClass[]> {
  const out: KnownClass[] = [];
  const collect = (target: string, all: ReturnType<typeof definitions>, only?: string): void => {
    for (const [name, node] of all) {
      if (node.type !== 'class_definition' || (only && name !== only)) continue;
      const methods = new Set(
        [...all.keys()].filter((k) => k.startsWith(`${name}.`)).map((k) => k.slice(name.length + 1)),
      );
      out.push({ file: target, name, methods });
    }
  };
  collect(file, defs);
  for (const binding of binds.values()) {
    if (!binding.name) continue;
    const target = await resolveModule(root, file, binding);
    const tree = target ? (await cache.parseFile(join(root, target)))?.tree : undefined;
    if (target && tree) collect(target, definitions(tree), binding.name);
  }
  return out;
}

/** Fixtures a test asks for by parameter, found in its module and in conftest.py files up the tree. */
async function fixtureSeeds(
  root: string,
  testFile: string,
  symbol: string,
  cache: Cache,
): Promise<CodeEdge[]> {
  const parsed = await cache.parseFile(join(root, testFile));
  const fn = parsed ? definitions(parsed.tree).get(symbol) : undefined;
  const params = (fn?.childForFieldName('parameters')?.namedChildren ?? [])
    .map((p) =>
      p.type === 'identifier'
        ? p.text
        : (p.childForFieldName('name')?.text ?? p.namedChildren[0]?.text ?? ''),
    )
    .filter((p) => p && p !== 'self');
  const edges: CodeEdge[] = [];
  for (const param of params) {
    for (const dir of [null, ...parentDirs(testFile)]) {
      const file = dir === null ? testFile : posix.join(dir, 'conftest.py');
      const conf = await cache.parseFile(join(root, file));
      const def = conf ? definitions(conf.tree).get(param) : undefined;
      if (def && /pytest\.fixture|@fixture/.test(def.parent?.text ?? '')) {
        edges.push({
          to: { file, symbol: param },
          role: 'fixture',
          reason: `fixture "${param}" used by ${symbol}`,
        });
        break;
      }
    }
  }
  return edges;
}

/** The failing test, what it calls through imports (to a depth), its fixtures, and the traceback frames. */
export async function scopePytest(failure: Failure, project: ProjectInfo, cache: Cache): Promise<ScopeInput> {
  const seeds: CodeEdge[] = [];
  for (const id of failure.tests.slice(0, 5)) {
    const { file, symbol } = testSymbol(id);
    seeds.push({
      to: { file, ...(symbol ? { symbol } : {}) },
      role: 'test',
      reason: `the failing test ${id}`,
    });
    if (symbol) seeds.push(...(await fixtureSeeds(project.root, file, symbol, cache)));
  }
  const frameEntries: ScopeEntry[] = [];
  const frames = [...(failure.location ? [failure.location] : []), ...failure.frames];
  frames.forEach((f, i) => {
    frameEntries.push({
      file: f.file,
      symbols: f.symbol ? [f.symbol] : [],
      role: isPythonTestFile(f.file) ? 'test' : 'source',
      reasons: [
        i === 0 ? `where the failure happened (line ${f.line ?? '?'})` : `frame ${i + 1} of the traceback`,
      ],
      depth: 0,
    });
    seeds.push({
      to: { file: f.file, ...(f.symbol ? { symbol: f.symbol } : {}) },
      role: 'source',
      reason: i === 0 ? 'where the failure happened' : `frame ${i + 1} of the traceback`,
    });
  });
  const walked = await walkGraph(seeds, {
    maxDepth: project.scopeDepth,
    expand: (node) => expand(project.root, node, cache),
  });
  // the walk reaches helpers in conftest.py and test folders as callees: they are still tests
  for (const e of walked) if (e.role === 'source' && isPythonTestFile(e.file)) e.role = 'test';
  return { entries: mergeScopeEntries(frameEntries, walked), excluded: [] };
}
