import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import type { Edit, FixProposalInput, FixRequest } from '@suture/core';
import { diffEdit } from '../edits.js';
import { moduleStyle, type ModuleStyle } from './module-resolution.js';
import { bindingStatement, isBuiltinModuleName, memberUses, projectModuleNamed } from './node-builtins.js';
import { closestInOrder } from '../distance.js';
import { undefinedName } from './undefined-name.js';
import { visibleNames } from './visible-names.js';

const FIXABLE_CODES = new Set([2304, 2552, 2580, 2582, 2583, 2584, 2503, 2662, 2663]);
const WANTED_FIXES = new Set(['spelling', 'import', 'requireInTs', 'fixMissingImport']);

/** Node's own type declarations, shipped with this fixer, so a missing `require('path')` has a fix. */
function nodeTypeRoots(): string[] {
  try {
    return [dirname(dirname(createRequire(import.meta.url).resolve('@types/node/package.json')))];
  } catch {
    return [];
  }
}

/** Is this file an ES module (so a fix adds `import`), or CommonJS (so it adds `require`)? */
function isEsm(file: string, source: string): boolean {
  if (/\.m[jt]s$/.test(file)) return true;
  if (/\.c[jt]s$/.test(file)) return false;
  if (/^\s*(import\s[^(]|export\s)/m.test(source)) return true;
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg))
      return (JSON.parse(readFileSync(pkg, 'utf8')) as { type?: string }).type === 'module';
    if (dirname(dir) === dir) return false;
  }
}

interface ScriptService {
  service: ts.LanguageService;
  /** Checks `text` in place of what is on disk for `file` from the next request on, reusing the rest of the program. */
  setText(file: string, text: string): void;
}

const BROWSER_ENVIRONMENT = /\b(?:jsdom|happy-dom)\b|\bbrowser\s*:\s*\{/;
const TEST_CONFIGS =
  /^(?:jest|vitest|vite|vitest\.workspace)\.config\.[cm]?[jt]s$|^jest\.config\.json$|^vitest\.workspace\.[cm]?[jt]s$/;

/**
 * Whether the tests run with a DOM (Jest's or Vitest's `jsdom` / `happy-dom` environment, or
 * Vitest's browser mode), read from a file's environment docblock, package.json and the test
 * runner's config files in the project root. Only then are the DOM's globals in the program: in
 * Node they do not exist, so `document` is no fix for `documnt` there, and leaving the DOM's
 * declarations out makes the check several times faster.
 */
function testsHaveDom(root: string, texts: readonly string[]): boolean {
  if (texts.some((t) => /@(?:jest|vitest)-environment\s+(?:jsdom|happy-dom)\b/.test(t))) return true;
  let names: string[];
  try {
    names = readdirSync(root).filter((n) => n === 'package.json' || TEST_CONFIGS.test(n));
  } catch {
    return true;
  }
  return names.some((n) => {
    try {
      return BROWSER_ENVIRONMENT.test(readFileSync(join(root, n), 'utf8'));
    } catch {
      return false;
    }
  });
}

function languageService(root: string, files: string[], style: ModuleStyle, dom: boolean): ScriptService {
  const texts = new Map<string, { text: string; version: number }>();
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => files,
    getScriptVersion: (f) => String(texts.get(f)?.version ?? 0),
    getScriptSnapshot: (f) => {
      const text = texts.get(f)?.text ?? (existsSync(f) ? readFileSync(f, 'utf8') : undefined);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => ({
      allowJs: true,
      checkJs: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      ...(style === 'bundler'
        ? { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler }
        : style === 'node'
          ? { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }
          : { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10 }),
      // the default libraries of the target hold the DOM's; without a DOM, the language's alone
      ...(dom ? {} : { lib: ['lib.es2022.d.ts'] }),
      types: ['node'],
      typeRoots: nodeTypeRoots(),
      skipLibCheck: true,
    }),
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return {
    service: ts.createLanguageService(host, ts.createDocumentRegistry()),
    setText: (f, text) => texts.set(f, { text, version: (texts.get(f)?.version ?? 0) + 1 }),
  };
}

const unfixable = (diagnosis: string): FixProposalInput => ({
  verdict: 'unfixable',
  diagnosis,
  usage: { calls: 0, costUsd: 0 },
});

/**
 * The modules the language service's import fixes come from. `path`, `path/posix` and `node:path`
 * are one module; two different ones (two project files exporting the name) are a guess.
 */
function importedModules(fixes: readonly ts.CodeFixAction[]): string[] {
  const specifiers = fixes
    .filter((f) => f.fixName === 'import')
    .map((f) => /from (?:module )?"([^"]+)"/.exec(f.description)?.[1] ?? f.description);
  return [
    ...new Set(specifiers.map((s) => s.replace(/^node:/, '').replace(/^(\w+)\/(?:posix|win32)$/, '$1'))),
  ];
}

/**
 * `os.EOL` in a file that never required `os`: the import fix does not cover it, because only a
 * module declared with `export =` (as `path` is) exports its own name. Node's module of that name
 * is bound when nothing in the project answers to it too, and only if every `os.<member>` of the
 * file then type-checks against Node's declarations.
 */
function builtinModuleBinding(c: {
  root: string;
  file: string;
  rel: string;
  source: string;
  esm: boolean;
  name: string;
  script: ScriptService;
}): FixProposalInput | undefined {
  const { file, source, name } = c;
  const own = projectModuleNamed(file, name);
  if (own)
    return unfixable(
      `"${name}" is not defined; it could be Node's built-in module or the project's ${own.slice(c.root.length + 1)}: needs an LLM fixer`,
    );
  const sf = c.script.service.getProgram()?.getSourceFile(file);
  if (!sf) return undefined;
  const uses = memberUses(sf, name);
  if (uses.length === 0) return undefined;
  const { at, text } = bindingStatement(sf, name, c.esm);
  const after = source.slice(0, at) + text + source.slice(at);
  const shifted = (pos: number): number => (pos >= at ? pos + text.length : pos);
  const spans = uses.map((u) => [shifted(u.getStart(sf)), shifted(u.getEnd())] as const);
  c.script.setText(file, after);
  const wrong = c.script.service
    .getSemanticDiagnostics(file)
    .filter((d) => d.start !== undefined && spans.some(([s, e]) => d.start! >= s && d.start! < e));
  if (wrong.length > 0) {
    const why = ts.flattenDiagnosticMessageText(wrong[0]!.messageText, ' ');
    return unfixable(
      `"${name}" is not defined, and Node's "${name}" module does not fit how the file uses it (${why}): needs an LLM fixer`,
    );
  }
  const edit = diffEdit(c.rel, source, after);
  if (!edit) return undefined;
  const members = [...new Set(uses.map((u) => `${name}.${u.name.text}`))].slice(0, 3).join(', ');
  return {
    verdict: 'edits',
    edits: [edit],
    rationale: `"${name}" is Node's built-in module, used as ${members} without being bound: added \`${text.trim()}\``,
    usage: { calls: 0, costUsd: 0 },
  };
}

/**
 * The closest name visible where `name` is used, when TypeScript offers no spelling fix (it skips
 * names shorter than three characters): the file's own names first, then the rest in scope, and
 * only an unambiguous winner; a tie leaves it to the next fixer with the candidates.
 */
function closestName(
  service: ts.LanguageService,
  file: string,
  rel: string,
  source: string,
  name: string,
  at: ts.Diagnostic,
): FixProposalInput | undefined {
  const pick = closestInOrder(name, visibleNames(service, file, at.start!));
  if (!pick.ok)
    return pick.candidates.length > 1
      ? unfixable(
          `"${name}" is not defined; several names are equally close (${pick.candidates.join(', ')}): needs an LLM fixer`,
        )
      : undefined;
  const after = source.slice(0, at.start!) + pick.best + source.slice(at.start! + (at.length ?? 0));
  const edit = diffEdit(rel, source, after);
  return edit
    ? {
        verdict: 'edits',
        edits: [edit],
        rationale: `"${name}" is not defined; the closest name visible there is "${pick.best}"`,
        usage: { calls: 0, costUsd: 0 },
      }
    : undefined;
}

/**
 * `ReferenceError: x is not defined` / `Cannot find name 'x'`: the TypeScript language service's
 * own code fixes (spelling, add an import or a require) on the file where it happened.
 */
export async function scriptProposal(request: FixRequest): Promise<FixProposalInput | undefined> {
  const name = undefinedName(request);
  const loc = request.failure.location;
  if (!name || !loc) return undefined;
  const root = request.project.root;
  const file = join(root, loc.file);
  if (!existsSync(file)) return undefined;
  const others = request.scope.entries
    .map((e) => join(root, e.file))
    .filter((f) => f !== file && /\.[cm]?[jt]sx?$/.test(f));
  const source = readFileSync(file, 'utf8');
  const esm = isEsm(file, source);
  const dom = testsHaveDom(root, [
    source,
    ...others.map((f) => {
      try {
        return readFileSync(f, 'utf8');
      } catch {
        return '';
      }
    }),
  ]);
  const script = languageService(root, [file, ...others], moduleStyle(root, file, esm), dom);
  const { service } = script;
  const diagnostics = service
    .getSemanticDiagnostics(file)
    .filter(
      (d) =>
        d.start !== undefined &&
        FIXABLE_CODES.has(d.code) &&
        source.slice(d.start, d.start + (d.length ?? 0)) === name,
    );
  // prefer the occurrence on the failing line
  const lineStart = loc.line
    ? source
        .split('\n')
        .slice(0, loc.line - 1)
        .join('\n').length + (loc.line > 1 ? 1 : 0)
    : 0;
  diagnostics.sort((a, b) => Math.abs(a.start! - lineStart) - Math.abs(b.start! - lineStart));
  const formatting = ts.getDefaultFormatCodeSettings();
  for (const d of diagnostics) {
    const fixes = service.getCodeFixesAtPosition(
      file,
      d.start!,
      d.start! + (d.length ?? 0),
      [d.code],
      formatting,
      { quotePreference: 'auto', importModuleSpecifierPreference: 'relative' },
    );
    const fix = fixes.find((f) => WANTED_FIXES.has(f.fixName));
    if (!fix) continue;
    const modules = importedModules(fixes);
    if (modules.length > 1)
      return unfixable(
        `"${name}" is not defined and more than one module exports it (${modules.join(', ')}): needs an LLM fixer`,
      );
    const edits: Edit[] = [];
    for (const change of fix.changes) {
      const before = readFileSync(change.fileName, 'utf8');
      const after = [...change.textChanges]
        .sort((a, b) => b.span.start - a.span.start)
        .reduce(
          (acc, c) => acc.slice(0, c.span.start) + c.newText + acc.slice(c.span.start + c.span.length),
          before,
        );
      const rel = change.fileName.startsWith(`${root}/`)
        ? change.fileName.slice(root.length + 1)
        : change.fileName;
      const edit = diffEdit(rel, before, after);
      if (edit) edits.push(edit);
    }
    if (edits.length > 0)
      return {
        verdict: 'edits',
        edits,
        rationale: `TypeScript code fix: ${fix.description}`,
        usage: { calls: 0, costUsd: 0 },
      };
  }
  if (diagnostics.length > 0 && isBuiltinModuleName(name))
    return builtinModuleBinding({ root, file, rel: loc.file, source, esm, name, script });
  const near = diagnostics[0] && closestName(service, file, loc.file, source, name, diagnostics[0]);
  if (near) return near;
  return unfixable(
    `"${name}" is not defined and the TypeScript language service has no spelling or import fix for it: needs an LLM fixer`,
  );
}
