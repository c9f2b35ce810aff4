import { access, readFile, realpath } from 'node:fs/promises';
import { dirname, join, posix, relative } from 'node:path';
import type { SummaryCache } from '@suture/core/analysis';
import { aliasCandidates, type ModulePaths } from './module-paths.js';
import type { JsDef, JsExport, JsImport, JsModule, JsTest } from './js-summary.js';

export interface JsIndex {
  file: string;
  module: JsModule;
  defs: Map<string, JsDef>;
  imports: Map<string, JsImport>;
  exports: Map<string, JsExport>;
}

/** Where a name leads: a definition, or a whole module. */
export interface Resolved {
  file: string;
  symbol?: string;
  via: string[];
}

const EXTENSIONS = ['', '.js', '.ts', '.tsx', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];
const INDEXES = ['/index.js', '/index.ts', '/index.tsx', '/index.mjs', '/index.cjs'];
const SCRIPT = /\.[cm]?[jt]sx?$/;
const MAX_CHAIN = 12;

/**
 * The project's JS/TS modules as the analyzer sees them for one scope: summaries from the cache,
 * import sources resolved (relative paths, tsconfig `paths`, Jest's `moduleNameMapper`, workspace
 * packages) and names resolved through ES exports (`export *`, `export { x } from`), CommonJS
 * (`module.exports = {...}`, `exports.x =`) and re-exports. Memoised for its lifetime.
 */
export class JsProject {
  private readonly indexes = new Map<string, Promise<JsIndex | undefined>>();
  private readonly existing = new Map<string, Promise<boolean>>();
  readonly skipped = new Map<string, string>();

  constructor(
    readonly root: string,
    private readonly summaries: SummaryCache<JsModule>,
    private readonly paths: ModulePaths,
  ) {}

  index(file: string): Promise<JsIndex | undefined> {
    let found = this.indexes.get(file);
    if (!found) {
      found = this.summaries.read(this.root, file).then((s) => {
        if (!s) return undefined;
        if (s.skipped !== undefined) {
          this.skipped.set(file, s.skipped);
          return undefined;
        }
        return {
          file,
          module: s.summary,
          defs: new Map(s.summary.defs.map((d) => [d.name, d])),
          imports: new Map(s.summary.imports),
          exports: new Map(s.summary.exports),
        };
      });
      this.indexes.set(file, found);
    }
    return found;
  }

  /**
   * The test callback Jest names `name`: its path of titles (`A > works`), or its full name (the
   * titles joined by spaces), a `test.each` template matching its cases loosely. `title`, the test's
   * own title, finds it when its suites' titles are computed; the full name decides between tests of
   * one title in several suites. An `occurrence` (from an id's ` #<n>` mark) is the n-th test of
   * that name in the file, or a test whose own name ends in the mark.
   */
  async test(file: string, name: string, title?: string, occurrence?: number): Promise<JsTest | undefined> {
    const tests = (await this.index(file))?.module.tests ?? [];
    const full = (t: JsTest): string => t.path.split(' > ').join(' ');
    if (occurrence !== undefined) {
      const marked = `${name} #${occurrence}`;
      const exact = tests.filter((t) => t.path === name || full(t) === name);
      const found =
        tests.find((t) => t.path === marked || full(t) === marked) ??
        (exact.length >= occurrence ? exact[occurrence - 1] : undefined);
      if (found) return found;
    }
    const loose = (template: string): RegExp =>
      new RegExp(
        `^${template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%[sdifjop#]|\\\$\w+/g, '.*')}$`,
      );
    const titled = title === undefined ? [] : tests.filter((t) => t.title === title);
    return (
      tests.find((t) => t.path === name || full(t) === name) ??
      titled.find((t) => loose(full(t)).test(name)) ??
      titled[0] ??
      tests.find((t) => t.title === name) ??
      tests.find((t) => loose(full(t)).test(name)) ??
      (title === undefined ? undefined : tests.find((t) => loose(t.title).test(title))) ??
      tests.find((t) => loose(t.title).test(name))
    );
  }

  private exists(rel: string): Promise<boolean> {
    let found = this.existing.get(rel);
    if (!found) {
      found = access(join(this.root, rel)).then(
        () => true,
        () => false,
      );
      this.existing.set(rel, found);
    }
    return found;
  }

  private async firstFile(base: string): Promise<string | undefined> {
    if (base.startsWith('..')) return undefined;
    for (const ext of [...EXTENSIONS, ...INDEXES]) {
      const candidate = `${base}${ext}`;
      if (SCRIPT.test(candidate) && (await this.exists(candidate))) return candidate;
    }
    // ESM TypeScript imports name the emitted .js file: look for the .ts source
    const ts = base.replace(/\.js$/, '.ts');
    return ts !== base && (await this.exists(ts)) ? ts : undefined;
  }

  /** An import source to a project file: relative, aliased, or a workspace package's entry. */
  async resolveSource(fromFile: string, source: string): Promise<string | undefined> {
    if (source.startsWith('.'))
      return this.firstFile(posix.normalize(posix.join(posix.dirname(fromFile), source)));
    if (source.startsWith('node:')) return undefined;
    for (const candidate of aliasCandidates(source, this.paths)) {
      const hit = await this.firstFile(candidate);
      if (hit) return hit;
    }
    return this.workspacePackage(fromFile, source);
  }

  private async workspacePackage(fromFile: string, source: string): Promise<string | undefined> {
    const [scope, name] = source.split('/');
    const pkgName = scope!.startsWith('@') ? `${scope}/${name}` : scope!;
    for (let dir = join(this.root, posix.dirname(fromFile)); ; dir = dirname(dir)) {
      const pkgDir = join(dir, 'node_modules', pkgName);
      const text = await readFile(join(pkgDir, 'package.json'), 'utf8').catch(() => undefined);
      if (text) {
        const pkg = JSON.parse(text) as { exports?: unknown; main?: string; module?: string };
        const entry = pickEntry(pkg.exports) ?? pkg.module ?? pkg.main ?? 'index.js';
        const real = await realpath(join(pkgDir, entry)).catch(() => undefined);
        const rel = real ? relative(this.root, real) : undefined;
        // only workspace packages inside the project are followed, never third-party code
        return rel && !rel.startsWith('..') && !rel.includes('node_modules')
          ? rel.split('\\').join('/')
          : undefined;
      }
      if (dirname(dir) === dir || !dir.startsWith(this.root)) return undefined;
    }
  }

  /** What `name` means in module `file`: its own definition or an import followed to its export. */
  async resolveName(file: string, name: string, chain: string[] = []): Promise<Resolved | undefined> {
    const index = await this.index(file);
    if (!index || chain.length > MAX_CHAIN) return undefined;
    if (index.defs.has(name)) return { file, symbol: name, via: [] };
    const binding = index.imports.get(name);
    if (!binding) return undefined;
    const target = await this.resolveSource(file, binding.source);
    if (!target) return undefined;
    if (binding.name === '*') return { file: target, via: [] };
    return this.resolveExport(target, binding.name, [...chain, `${file}#${name}`]);
  }

  /** What module `file` exports as `name`, through re-exports, `export *` and CommonJS. */
  async resolveExport(file: string, name: string, chain: string[] = []): Promise<Resolved | undefined> {
    const key = `${file}>${name}`;
    if (chain.includes(key) || chain.length > MAX_CHAIN) return undefined;
    const next = [...chain, key];
    const index = await this.index(file);
    if (!index) return undefined;
    const exported = index.exports.get(name);
    if (exported?.local !== undefined) {
      const inner = await this.resolveName(file, exported.local, next);
      return inner ?? { file, via: [] };
    }
    if (exported?.source) {
      const target = await this.resolveSource(file, exported.source);
      if (!target) return undefined;
      if (exported.name === '*') return { file: target, via: [file] };
      const inner = await this.resolveExport(target, exported.name ?? name, next);
      return inner ? { ...inner, via: [file, ...inner.via] } : undefined;
    }
    // a module that exports without saying so (a script that defines its functions at top level)
    if (index.defs.has(name)) return { file, symbol: name, via: [] };
    if (name === 'default') return undefined;
    for (const star of index.module.stars) {
      const target = await this.resolveSource(file, star);
      const inner = target ? await this.resolveExport(target, name, next) : undefined;
      if (inner?.symbol) return { ...inner, via: [file, ...inner.via] };
    }
    return undefined;
  }
}

function pickEntry(exp: unknown): string | undefined {
  if (typeof exp === 'string') return exp;
  if (!exp || typeof exp !== 'object') return undefined;
  const o = exp as Record<string, unknown>;
  if ('.' in o) return pickEntry(o['.']);
  for (const c of ['source', 'import', 'require', 'node', 'default']) {
    const hit = pickEntry(o[c]);
    if (hit) return hit;
  }
  return undefined;
}
