import { readFile, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { FileSummary, SummaryCache } from '@suture/core/analysis';
import { joinInProject, type CompileDb } from './compile-db.js';
import { expandName, type CppDef, type CppFile, type CppMacro } from './cpp-summary.js';

/** A file's summary with its definitions by name (a macro-built name under its expansion too). */
export interface CppIndex {
  file: string;
  summary: CppFile;
  defs: Map<string, CppDef[]>;
}

/** Files an include chain may pull in before the walk stops following it. */
const MAX_VISIBLE = 400;
const IMPLEMENTATION = /\.(c|cc|cpp|cxx|c\+\+)$/;
const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'return', 'sizeof', 'catch', 'defined']);

/**
 * Names that look defined in a text: the identifiers of every `name(...) {` head. Cheap and
 * generous; a file it names is parsed to make sure.
 */
export function definedNames(text: string): Set<string> {
  const out = new Set<string>();
  const head =
    /\b([A-Za-z_~]\w*)\s*(\((?:[^;{}()]|\([^;{}()]*\))*\))\s*(\((?:[^;{}()]|\([^;{}()]*\))*\))?\s*(?:const\b\s*)?(?:noexcept\b\s*)?(?:override\b\s*)?(?::[^;{]*)?\{/g;
  for (const m of text.matchAll(head)) {
    if (KEYWORDS.has(m[1]!)) continue;
    out.add(m[1]!);
    // `URI_FUNC(ParseUri)(...) {` names ParseUri through a macro; `TEST(Suite, Name) {` names both
    for (const id of m[2]!.matchAll(/[A-Za-z_]\w*/g)) out.add(id[0]);
  }
  return out;
}

/** Per-file defined names by mtime and size, kept by the analyzer across scopes. */
export class DefinitionIndex {
  private readonly byFile = new Map<string, { key: string; names: Set<string> }>();

  async names(root: string, file: string): Promise<Set<string>> {
    const s = await stat(join(root, file)).catch(() => undefined);
    if (!s || s.size > 2 * 1024 * 1024) return new Set();
    const key = `${s.mtimeMs}:${s.size}`;
    const hit = this.byFile.get(`${root}\0${file}`);
    if (hit?.key === key) return hit.names;
    const names = definedNames(await readFile(join(root, file), 'utf8').catch(() => ''));
    this.byFile.set(`${root}\0${file}`, { key, names });
    return names;
  }
}

/**
 * The project's C and C++ code as the analyzer sees it for one scope: its files, the build's
 * include folders, summaries from the cache, includes resolved (quoted and angle-bracket, into
 * the project, transitively), and definitions found in any file by name.
 */
export class CppProject {
  private readonly indexes = new Map<string, Promise<CppIndex | undefined>>();
  private readonly sourceSet: Set<string>;
  private byName: Promise<Map<string, string[]>> | undefined;
  private readonly reads = new Map<string, Promise<FileSummary<CppFile> | undefined>>();
  private readonly visibles = new Map<string, Promise<Array<{ file: string; via: string }>>>();
  private readonly macroMaps = new Map<string, Promise<Map<string, CppMacro>>>();
  readonly skipped = new Map<string, string>();

  constructor(
    readonly root: string,
    /** Every project C/C++ file (build and vendored folders left out unless the build compiles them). */
    readonly sources: readonly string[],
    readonly db: CompileDb | undefined,
    private readonly summaries: SummaryCache<CppFile>,
    private readonly definitions: DefinitionIndex,
  ) {
    this.sourceSet = new Set(sources);
  }

  has(file: string): boolean {
    return this.sourceSet.has(file);
  }

  index(file: string): Promise<CppIndex | undefined> {
    let found = this.indexes.get(file);
    if (!found) {
      found = this.build(file);
      this.indexes.set(file, found);
    }
    return found;
  }

  /** A file's summary, read once per scope. */
  private read(file: string): Promise<FileSummary<CppFile> | undefined> {
    let found = this.reads.get(file);
    if (!found) {
      found = this.summaries.read(this.root, file);
      this.reads.set(file, found);
    }
    return found;
  }

  private async build(file: string): Promise<CppIndex | undefined> {
    const s = await this.read(file);
    if (!s) return undefined;
    if (s.skipped !== undefined) {
      this.skipped.set(file, s.skipped);
      return undefined;
    }
    const defs = new Map<string, CppDef[]>();
    const add = (name: string, def: CppDef): void => {
      defs.set(name, [...(defs.get(name) ?? []), def]);
    };
    for (const def of s.summary.defs) add(def.name, def);
    const macroBuilt = s.summary.defs.filter((d) => d.macro);
    if (macroBuilt.length > 0) {
      const macros = await this.macros(file);
      for (const def of macroBuilt) {
        const expanded = expandName(def.macro!, def.name, macros);
        if (expanded && expanded !== def.name) add(expanded, def);
      }
    }
    return { file, summary: s.summary, defs };
  }

  /**
   * Function-like macros a file sees: its own and those of the files it includes; of several
   * definitions of one name, the first whose `#ifdef` the build's defines for the file meet.
   */
  macros(file: string): Promise<Map<string, CppMacro>> {
    let found = this.macroMaps.get(file);
    if (!found) {
      found = (async () => {
        const defined = new Set(this.db?.defines.get(file) ?? this.db?.allDefines ?? []);
        const all: CppMacro[] = [];
        for (const v of await this.visible(file))
          all.push(...((await this.read(v.file))?.summary?.macros ?? []));
        const out = new Map<string, CppMacro>();
        for (const m of all)
          if (!out.has(m.name) && (!m.when || defined.has(m.when.name) === m.when.defined))
            out.set(m.name, m);
        for (const m of all) if (!out.has(m.name)) out.set(m.name, m);
        return out;
      })();
      this.macroMaps.set(file, found);
    }
    return found;
  }

  /** `#include "path"` or `<path>` from a file, resolved to a project file. */
  resolveInclude(from: string, path: string, angle: boolean): string | undefined {
    const dirs = [
      ...(angle ? [] : [posix.dirname(from) === '.' ? '' : posix.dirname(from)]),
      ...(this.db?.includeDirs.get(from) ?? this.db?.allIncludeDirs ?? []),
    ];
    for (const dir of dirs) {
      const candidate = joinInProject(dir, path);
      if (candidate !== undefined && this.sourceSet.has(candidate)) return candidate;
    }
    // without the build's folders: the project file whose path ends with the include
    if (!this.db || !angle) return this.sources.find((s) => s === path || s.endsWith(`/${path}`));
    return undefined;
  }

  /** A file and everything it includes from the project, transitively, with the include that brought each in. */
  visible(file: string): Promise<Array<{ file: string; via: string }>> {
    let found = this.visibles.get(file);
    if (!found) {
      found = this.includeClosure(file);
      this.visibles.set(file, found);
    }
    return found;
  }

  private async includeClosure(file: string): Promise<Array<{ file: string; via: string }>> {
    const out = [{ file, via: 'same file' }];
    const seen = new Set([file]);
    for (let i = 0; i < out.length && out.length < MAX_VISIBLE; i++) {
      const current = out[i]!;
      const s = await this.read(current.file);
      for (const inc of s?.summary?.includes ?? []) {
        const target = this.resolveInclude(current.file, inc.path, inc.angle);
        if (!target || seen.has(target)) continue;
        seen.add(target);
        const written = inc.angle ? `<${inc.path}>` : `"${inc.path}"`;
        out.push({
          file: target,
          via: i === 0 ? `#include ${written}` : `#include ${written} in ${current.file}`,
        });
      }
    }
    return out;
  }

  /** Files by the names their text looks like it defines, read once per scope. */
  private nameMap(): Promise<Map<string, string[]>> {
    this.byName ??= (async () => {
      const map = new Map<string, string[]>();
      for (const file of this.sources)
        for (const n of await this.definitions.names(this.root, file))
          map.set(n, [...(map.get(n) ?? []), file]);
      return map;
    })();
    return this.byName;
  }

  /** Files that define `name`, found by a cheap text scan and confirmed by their summaries. */
  async definers(name: string): Promise<string[]> {
    const out: string[] = [];
    for (const file of (await this.nameMap()).get(name) ?? []) {
      if ((await this.index(file))?.defs.has(name)) out.push(file);
      if (out.length >= 4) break;
    }
    return out;
  }

  /** Files whose text looks like it defines `name` (not yet confirmed by a parse). */
  async filesNaming(name: string): Promise<string[]> {
    return (await this.nameMap()).get(name) ?? [];
  }

  /** Every name a function-defining macro could have built as `name`: `uriParseUriA` -> `ParseUri`. */
  async unexpand(file: string, name: string): Promise<string[]> {
    const out: string[] = [];
    const macros = await this.macros(file);
    for (const m of macros.values()) {
      if (m.params.length !== 1) continue;
      const pattern = expandName(m.name, '\u0001', macros);
      if (!pattern?.includes('\u0001')) continue;
      const [prefix, suffix] = pattern.split('\u0001') as [string, string];
      if (name.length > prefix.length + suffix.length && name.startsWith(prefix) && name.endsWith(suffix))
        out.push(name.slice(prefix.length, name.length - suffix.length));
    }
    return out;
  }

  /** Implementation files among the sources (for seeds by target). */
  isImplementation(file: string): boolean {
    return IMPLEMENTATION.test(file);
  }
}
