import type { FixRequest } from '@suture/core';

/** A name the toolchain says is wrong, the name it suggests, and where it saw it. */
export interface Suggestion {
  wrong: string;
  right: string;
  file?: string;
  line?: number;
}

// GCC quotes with ‘’ outside the C locale
const Q = `['‘’]`;
const NAME = `${Q}(\\w+)${Q}`;

/** How toolchains phrase it. Each pattern captures the wrong name, then the suggestion. */
const PATTERNS: readonly RegExp[] = [
  // CPython 3.10+: NameError and AttributeError
  `name ${NAME} is not defined\\. Did you mean: ${NAME}\\?`,
  `has no attribute ${NAME}\\. Did you mean: ${NAME}\\?`,
  // GCC and Clang
  `${NAME} was not declared in this scope; did you mean ${NAME}\\?`,
  `use of undeclared identifier ${NAME}; did you mean ${NAME}\\?`,
  // TypeScript
  `Cannot find name ${NAME}\\. Did you mean ${NAME}\\?`,
].map((source) => new RegExp(source, 'g'));

function find(text: string, where: { file?: string; line?: number }): Suggestion[] {
  return PATTERNS.flatMap((p) =>
    [...text.matchAll(p)].map((m) => ({ wrong: m[1]!, right: m[2]!, ...where })),
  );
}

/** The innermost `File "x", line N` of a Python traceback that names a project file. */
function pythonFrame(evidence: string, root: string): { file: string; line: number } | undefined {
  const frames = [...evidence.matchAll(/File "([^"]+)", line (\d+)/g)].map((m) => ({
    file: m[1]!.startsWith(`${root}/`) ? m[1]!.slice(root.length + 1) : m[1]!,
    line: Number(m[2]),
  }));
  return frames.filter((f) => !f.file.startsWith('/')).at(-1);
}

/**
 * Every suggestion the failure carries: in its diagnostics (a compiler's, at their own file and
 * line), else in its evidence (a traceback's, at the innermost project frame or the failure's
 * location).
 */
export function suggestionsOf(request: FixRequest): Suggestion[] {
  const { failure } = request;
  const fromDiagnostics = failure.diagnostics.flatMap((d) =>
    find(d.message, { ...(d.file ? { file: d.file } : {}), ...(d.line ? { line: d.line } : {}) }),
  );
  if (fromDiagnostics.length > 0) return fromDiagnostics;
  const at = pythonFrame(failure.evidence, request.project.root) ?? failure.location;
  return find(`${failure.title}\n${failure.evidence}`, {
    ...(at?.file ? { file: at.file } : {}),
    ...(at?.line ? { line: at.line } : {}),
  });
}
