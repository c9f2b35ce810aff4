import { access } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { FileSummary, SummaryCache } from '@suture/core/analysis';
import type { PyDef, PyImport, PyModule } from './python-summary.js';

/** A module's summary with lookups by name. */
export interface PyIndex {
  file: string;
  module: PyModule;
  defs: Map<string, PyDef>;
  imports: Map<string, PyImport>;
  aliases: Map<string, string>;
}

/** Where a name leads: a definition, or a whole module. */
export interface Resolved {
  file: string;
  symbol?: string;
  /** The files the name went through (`__init__` re-exports, star imports, aliases). */
  via: string[];
}

const MAX_CHAIN = 12;

/**
 * The project's Python modules as the analyzer sees them for one scope: files found, summaries
 * read (from the cache), names resolved through imports, `__init__` re-exports, star imports
 * (`__all__` or the public top-level names) and aliases. Everything is memoised for its lifetime.
 */
export class PythonProject {
  private readonly indexes = new Map<string, Promise<PyIndex | undefined>>();
  private readonly existing = new Map<string, Promise<boolean>>();
  /** Files the cache would not read (too large), with the reason. */
  readonly skipped = new Map<string, string>();

  constructor(
    readonly root: string,
    private readonly summaries: SummaryCache<PyModule>,
    /** Folders imports are resolved from besides the root and the importing file's own: `src`. */
    private readonly paths: readonly string[] = ['src'],
  ) {}

  /** The content hash of a file as the cache read it; undefined when it cannot be read. */
  async hash(file: string): Promise<string | undefined> {
    const s = await this.summaries.read(this.root, file);
    return s?.skipped === undefined ? s?.hash : undefined;
  }

  index(file: string): Promise<PyIndex | undefined> {
    let found = this.indexes.get(file);
    if (!found) {
      found = this.summaries.read(this.root, file).then((s) => this.toIndex(file, s));
      this.indexes.set(file, found);
    }
    return found;
  }

  /**
   * Registers a text that is not a module file of its own (the examples of a doctest) under a
   * key in the folder of the file it comes from (`docs/intro.rst::#doctest`), so its own imports
   * resolve from there, and returns its index.
   */
  indexText(key: string, source: string): Promise<PyIndex | undefined> {
    let found = this.indexes.get(key);
    if (!found) {
      found = this.summaries.summary(this.root, key, source).then((s) => this.toIndex(key, s));
      this.indexes.set(key, found);
    }
    return found;
  }

  private toIndex(file: string, s: FileSummary<PyModule> | undefined): PyIndex | undefined {
    if (!s) return undefined;
    if (s.skipped !== undefined) {
      this.skipped.set(file, s.skipped);
      return undefined;
    }
    const module = s.summary;
    return {
      file,
      module,
      defs: new Map(module.defs.map((d) => [d.name, d])),
      imports: new Map(module.imports),
      aliases: new Map(module.aliases),
    };
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

  /** A module to a project file (module.py or package/__init__.py), if it is the project's. */
  async resolveModule(fromFile: string, binding: PyImport): Promise<string | undefined> {
    const parts = binding.module ? binding.module.split('.') : [];
    const bases: string[] = [];
    if (binding.level > 0) {
      let base = posix.dirname(fromFile);
      for (let i = 1; i < binding.level; i++) base = posix.dirname(base);
      bases.push(base === '.' ? '' : base);
    } else {
      const own = posix.dirname(fromFile);
      bases.push('', ...this.paths, own === '.' ? '' : own);
    }
    for (const base of [...new Set(bases)]) {
      const stem = posix.join(base, ...parts);
      // `from pkg import mod` may name a submodule
      if (binding.name) {
        const sub = posix.join(stem, binding.name);
        if (await this.exists(`${sub}.py`)) return `${sub}.py`;
        if (await this.exists(posix.join(sub, '__init__.py'))) return posix.join(sub, '__init__.py');
      }
      if (parts.length > 0 && (await this.exists(`${stem}.py`))) return `${stem}.py`;
      if (await this.exists(posix.join(stem, '__init__.py'))) return posix.join(stem, '__init__.py');
    }
    return undefined;
  }

  /** The module a dotted module name resolves to from a file, with no imported name. */
  private moduleOf(fromFile: string, module: string, level = 0): Promise<string | undefined> {
    return this.resolveModule(fromFile, { module, level });
  }

  /**
   * What `name` means in module `file`: its own definition, an alias of another name, an import
   * (followed into the module it names, through re-exports), or a star import that exports it.
   */
  async resolveName(file: string, name: string, chain: string[] = []): Promise<Resolved | undefined> {
    const key = `${file}#${name}`;
    if (chain.includes(key) || chain.length > MAX_CHAIN) return undefined;
    const next = [...chain, key];
    const index = await this.index(file);
    if (!index) return undefined;
    if (index.defs.has(name)) return { file, symbol: name, via: [] };
    const alias = index.aliases.get(name);
    if (alias !== undefined) {
      const target = alias.includes('.')
        ? await this.resolveAttribute(
            file,
            alias.slice(0, alias.lastIndexOf('.')),
            alias.split('.').pop()!,
            next,
          )
        : await this.resolveName(file, alias, next);
      if (target) return { ...target, via: [file, ...target.via] };
    }
    const binding = index.imports.get(name);
    if (binding) {
      const target = await this.resolveModule(file, binding);
      if (!target) return undefined;
      if (
        !binding.name ||
        target.endsWith(`${binding.name}.py`) ||
        target.endsWith(`${binding.name}/__init__.py`)
      )
        return { file: target, via: [] };
      const inner = await this.resolveName(target, binding.name, next);
      return inner
        ? { ...inner, via: target === inner.file ? inner.via : [target, ...inner.via] }
        : { file: target, via: [] };
    }
    for (const star of index.module.stars) {
      const target = await this.resolveModule(file, star);
      const starIndex = target ? await this.index(target) : undefined;
      if (!target || !starIndex || !exports(starIndex, name)) continue;
      const inner = await this.resolveName(target, name, next);
      if (inner) return { ...inner, via: [target, ...inner.via] };
    }
    return undefined;
  }

  /** What `object.name` means in `file` when `object` is a module or a package path: `mod.f`, `pkg.sub.f`. */
  async resolveAttribute(
    file: string,
    object: string,
    name: string,
    chain: string[] = [],
  ): Promise<Resolved | undefined> {
    const [head, ...rest] = object.split('.');
    const index = await this.index(file);
    if (!index || !head) return undefined;
    let target: Resolved | undefined;
    const dotted = index.imports.get(object);
    if (dotted && !dotted.name) {
      const mod = await this.moduleOf(file, dotted.module, dotted.level);
      target = mod ? { file: mod, via: [] } : undefined;
    } else target = await this.resolveName(file, head, chain);
    for (const part of rest) {
      if (!target || target.symbol) return undefined;
      const sub = await this.resolveName(target.file, part, chain);
      target = sub ?? undefined;
    }
    if (!target) return undefined;
    if (target.symbol) {
      // `Class.method` through the class
      const cls = await this.index(target.file);
      const method = `${target.symbol}.${name}`;
      return cls?.defs.has(method) ? { file: target.file, symbol: method, via: target.via } : undefined;
    }
    const inner = await this.resolveName(target.file, name, chain);
    return inner ? { ...inner, via: [...target.via, ...inner.via] } : undefined;
  }

  /** A class's methods named `method`, its own or inherited through project base classes. */
  async method(file: string, cls: string, method: string, depth = 0): Promise<Resolved | undefined> {
    const index = await this.index(file);
    const def = index?.defs.get(cls);
    if (!index || def?.kind !== 'class' || depth > 6) return undefined;
    const own = `${cls}.${method}`;
    if (index.defs.has(own)) return { file, symbol: own, via: [] };
    const alias = index.aliases.get(own);
    if (alias && index.defs.has(alias)) return { file, symbol: alias, via: [] };
    for (const base of def.bases) {
      const b = base.includes('.')
        ? await this.resolveAttribute(file, base.slice(0, base.lastIndexOf('.')), base.split('.').pop()!)
        : await this.resolveName(file, base);
      if (b?.symbol) {
        const hit = await this.method(b.file, b.symbol, method, depth + 1);
        if (hit) return hit;
      }
    }
    return undefined;
  }
}

/** Does a module export `name` to `from module import *`? */
function exports(index: PyIndex, name: string): boolean {
  if (index.module.all) return index.module.all.includes(name);
  if (name.startsWith('_')) return false;
  return (
    index.defs.has(name) ||
    index.aliases.has(name) ||
    index.imports.has(name) ||
    // a star import re-exports what it imports: resolveName follows it and finds out
    index.module.stars.length > 0
  );
}
