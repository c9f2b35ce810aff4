import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FixProposalInput, FixRequest } from '@suture/core';
import { closest, closestInOrder } from '../distance.js';
import { diffEdit, lineEdit } from '../edits.js';
import { dirOf, projectPython, pythonFacts } from './interpreter.js';
import { classMembers, importInsertLine, localNames, moduleNames, pythonCache } from './model.js';

const usage = { calls: 0, costUsd: 0, inputTokens: 0, outputTokens: 0 };
type Result = FixProposalInput | undefined;

const unfixable = (diagnosis: string): FixProposalInput => ({ verdict: 'unfixable', diagnosis, usage });

async function source(root: string, file: string): Promise<string | undefined> {
  return readFile(join(root, file), 'utf8').catch(() => undefined);
}

function replaceWord(line: string, from: string, to: string): string | undefined {
  const re = new RegExp(`(?<![\\w.])${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\w)`);
  return re.test(line) ? line.replace(re, to) : undefined;
}

function replaceAttr(line: string, attr: string, to: string): string | undefined {
  const re = new RegExp(`\\.${attr}(?!\\w)`);
  return re.test(line) ? line.replace(re, `.${to}`) : undefined;
}

function message(request: FixRequest): string {
  return `${request.failure.title}\n${request.failure.evidence}`;
}

async function nameError(request: FixRequest, python: string): Promise<Result> {
  const m = /NameError: name '(\w+)' is not defined/.exec(message(request));
  const name = m?.[1];
  const loc = request.failure.location;
  if (!name || !loc?.line) return undefined;
  const root = request.project.root;
  const text = await source(root, loc.file);
  if (text === undefined) return undefined;
  const { tree } = pythonCache.parseText(text);
  const facts = await pythonFacts(python, root);
  if (facts?.stdlib.includes(name)) {
    const at = importInsertLine(tree);
    const lines = text.split('\n');
    const updated = [...lines.slice(0, at), `import ${name}`, ...lines.slice(at)].join('\n');
    const anchor =
      lines[at] !== undefined
        ? lineEdit(loc.file, text, at + 1, `import ${name}\n${lines[at]}`)
        : { file: loc.file, content: updated };
    if (!anchor) return undefined;
    return {
      verdict: 'edits',
      edits: [anchor],
      rationale: `"${name}" is a standard-library module used without an import: added \`import ${name}\``,
      usage,
    };
  }
  // CPython looks a name up in this order, and so breaks its own suggestion ties
  const pick = closestInOrder(name, [localNames(tree, loc.line), moduleNames(tree), facts?.builtins ?? []]);
  if (!pick.ok)
    return unfixable(
      pick.candidates.length
        ? `NameError "${name}": several names are equally close (${pick.candidates.join(', ')}); leaving it to the next fixer`
        : `NameError "${name}": no visible name is close enough to be a typo`,
    );
  const line = text.split('\n')[loc.line - 1] ?? '';
  const fixed = replaceWord(line, name, pick.best);
  const edit = fixed === undefined ? undefined : lineEdit(loc.file, text, loc.line, fixed);
  if (!edit) return undefined;
  const tie = pick.over
    ? ` (as close as ${pick.over.map((o) => `"${o}"`).join(', ')}, which Python looks up later)`
    : '';
  return {
    verdict: 'edits',
    edits: [edit],
    rationale: `NameError: "${name}" is not defined; the closest visible name is "${pick.best}"${tie}`,
    usage,
  };
}

async function attributeError(request: FixRequest, python: string): Promise<Result> {
  const text0 = message(request);
  const mod = /AttributeError: module '([\w.]+)' has no attribute '(\w+)'/.exec(text0);
  const obj = /AttributeError: '(\w+)' object has no attribute '(\w+)'/.exec(text0);
  const loc = request.failure.location;
  if ((!mod && !obj) || !loc?.line) return undefined;
  const root = request.project.root;
  const attr = (mod ?? obj)![2]!;
  let members: Iterable<string> | undefined;
  if (mod) {
    const projectFile = `${mod[1]!.replace(/\./g, '/')}.py`;
    const own = await source(root, projectFile);
    members =
      own !== undefined
        ? moduleNames(pythonCache.parseText(own).tree)
        : await dirOf(python, root, { module: mod[1]! });
  } else {
    const type = obj![1]!;
    for (const entry of request.scope.entries) {
      const text = await source(root, entry.file);
      const found = text === undefined ? undefined : classMembers(pythonCache.parseText(text).tree, type);
      if (found) {
        members = found;
        break;
      }
    }
    members ??= await dirOf(python, root, { builtinType: type });
  }
  if (!members)
    return unfixable(`AttributeError "${attr}": cannot list the attributes of ${(mod ?? obj)![1]}`);
  const pick = closest(
    attr,
    [...members].filter((m) => !m.startsWith('__')),
  );
  if (!pick.ok)
    return unfixable(
      `AttributeError "${attr}": ${pick.candidates.length ? `ambiguous (${pick.candidates.join(', ')})` : 'no attribute is close enough'}`,
    );
  const text = await source(root, loc.file);
  const line = text?.split('\n')[loc.line - 1];
  const fixed = line === undefined ? undefined : replaceAttr(line, attr, pick.best);
  const edit =
    fixed === undefined || text === undefined ? undefined : lineEdit(loc.file, text, loc.line, fixed);
  if (!edit) return undefined;
  return {
    verdict: 'edits',
    edits: [edit],
    rationale: `AttributeError: "${attr}" does not exist; the closest attribute is "${pick.best}"`,
    usage,
  };
}

async function importError(request: FixRequest, python: string): Promise<Result> {
  const m = /cannot import name '(\w+)' from '([\w.]+)'/.exec(message(request));
  const loc = request.failure.location;
  if (!m || !loc?.line) return undefined;
  const [, name, module] = m as unknown as [string, string, string];
  const root = request.project.root;
  const own =
    (await source(root, `${module.replace(/\./g, '/')}.py`)) ??
    (await source(root, `${module.replace(/\./g, '/')}/__init__.py`));
  const names =
    own !== undefined ? moduleNames(pythonCache.parseText(own).tree) : await dirOf(python, root, { module });
  if (!names) return undefined;
  const pick = closest(
    name,
    [...names].filter((n) => !n.startsWith('_')),
  );
  if (!pick.ok)
    return unfixable(
      `ImportError "${name}" from ${module}: ${pick.candidates.length ? `ambiguous (${pick.candidates.join(', ')})` : 'nothing close is exported'}`,
    );
  const text = await source(root, loc.file);
  if (text === undefined) return undefined;
  // the misspelled name is used below the import too: rename every whole-word use in that file
  const renamed = text.replace(new RegExp(`(?<![\\w.])${name}(?!\\w)`, 'g'), pick.best);
  const edit = diffEdit(loc.file, text, renamed);
  if (!edit) return undefined;
  return {
    verdict: 'edits',
    edits: [edit],
    rationale: `${module} has no "${name}"; the closest exported name is "${pick.best}"`,
    usage,
  };
}

async function missingColon(request: FixRequest): Promise<Result> {
  if (!/SyntaxError: expected ':'/.test(message(request))) return undefined;
  const loc = request.failure.location;
  const lineNo =
    (request.failure.details.syntaxLine as number | undefined) ??
    Number(/line (\d+)/.exec(request.failure.evidence)?.[1] ?? loc?.line);
  if (!loc || !lineNo) return undefined;
  const text = await source(request.project.root, loc.file);
  const line = text?.split('\n')[lineNo - 1];
  if (
    text === undefined ||
    line === undefined ||
    !/^\s*(if|elif|else|for|while|def|class|try|except|finally|with)\b/.test(line)
  )
    return undefined;
  const [, code, comment] = /^(.*?)(\s+#.*)?$/.exec(line)!;
  const edit = lineEdit(loc.file, text, lineNo, `${code!.trimEnd()}:${comment ?? ''}`);
  if (!edit) return undefined;
  return {
    verdict: 'edits',
    edits: [edit],
    rationale: "SyntaxError: expected ':' at the end of the statement",
    usage,
  };
}

/** The Python rules, tried in order; undefined when none applies. */
export async function pythonProposal(request: FixRequest, configuredPython?: string): Promise<Result> {
  const python = await projectPython(request.project.root, configuredPython);
  return (
    (await nameError(request, python)) ??
    (await attributeError(request, python)) ??
    (await importError(request, python)) ??
    (await missingColon(request))
  );
}
