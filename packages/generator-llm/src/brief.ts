import type { GenerateRequest, SourceSlice } from '@suture/core';
import { BOUNDS, callerSlices, exampleSlices, headerOf, pickExamples } from './context.js';
import { definitionLine, head, readProjectFile, targetSlice } from './excerpts.js';
import { generatedDir, importHint, jestExtension, newTestFile, type Family } from './layout.js';
import type { ResolvedGeneratorOptions } from './options.js';
import type { Brief } from './request.js';

/** What this generator wrote earlier in the run, so a removed file can be shown with its reason. */
export type Earlier = ReadonlyMap<string, { target: string; content: string }>;

/** The symbols of `file::function` targets that a target file defines (all of them for a lone target). */
function symbolsOf(request: GenerateRequest, family: Family, text: string): string[] {
  const given = request.options.symbols;
  const symbols = Array.isArray(given) ? given.filter((s): s is string => typeof s === 'string') : [];
  if (request.inputs.length === 1) return symbols;
  return symbols.filter((s) => definitionLine(family, text, s) !== undefined);
}

/** Files of earlier attempts on this target that were removed, as the model wrote them. */
function removedSlices(request: GenerateRequest, target: string, earlier: Earlier): SourceSlice[] {
  const removed = request.feedback?.removed ?? [];
  return removed
    .filter((r) => earlier.get(r.file)?.target === target)
    .slice(0, 2)
    .map((r) =>
      head(r.file, earlier.get(r.file)!.content, BOUNDS.removed, `written earlier and removed: ${r.verdict}`),
    );
}

/**
 * Everything the call for one target needs, read from the project within the bounds: the
 * target (and its header), the lines of its callers that use it, the existing tests that use it
 * as examples, and on a later attempt what was removed. Undefined when the target is unreadable.
 */
export async function briefFor(input: {
  request: GenerateRequest;
  family: Family;
  options: ResolvedGeneratorOptions;
  target: string;
  taken: ReadonlySet<string>;
  earlier: Earlier;
}): Promise<Brief | undefined> {
  const { request, family, options, target } = input;
  const root = request.project.root;
  const text = await readProjectFile(root, target);
  if (text === undefined) return undefined;
  const symbols = symbolsOf(request, family, text);
  const examples = await pickExamples(root, request.existingTests, target, symbols, options.examples);
  const best = examples[0]?.file;
  const dir = generatedDir(family, options.dir, best);
  const attempt = request.feedback?.attempt ?? 1;
  const file = await newTestFile({
    root,
    family,
    dir,
    target,
    symbol: symbols.length === 1 ? symbols[0] : undefined,
    attempt,
    ext: jestExtension(best),
    taken: input.taken,
  });
  const header = family === 'cpp' ? await headerOf(root, target) : undefined;
  const sources: SourceSlice[] = [targetSlice(family, target, text, symbols, BOUNDS.target)];
  if (header) sources.push(head(header.file, header.text, BOUNDS.header, "the target's header"));
  sources.push(...(await callerSlices(root, request.callers ?? [], target, symbols, options.callers)));
  sources.push(...exampleSlices(examples));
  sources.push(...removedSlices(request, target, input.earlier));
  return {
    project: request.project,
    family,
    target,
    symbols,
    file,
    attempt,
    importHint: importHint(family, file, target, header?.file),
    targetText: text,
    sources,
    ...(request.feedback ? { feedback: request.feedback } : {}),
  };
}
