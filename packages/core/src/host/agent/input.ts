import { isAbsolute } from 'node:path';
import type { z } from 'zod';
import type { Config } from '../../api/contracts/config.js';
import { formatIssues, keyPath } from '../format-issues.js';
import { AgentInputError } from './errors.js';

/**
 * A tool call's arguments parsed by their schema. `null` stands for "not given" (OpenAI's strict
 * function calling sends every key, null for the ones the model leaves out).
 */
export function parseToolInput<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const input =
    raw && typeof raw === 'object' && !Array.isArray(raw)
      ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null))
      : raw;
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data as z.infer<S>;
  const first = parsed.error.issues[0]!;
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape;
  const lines = formatIssues(parsed.error, input, (path) =>
    path.length === 0 && shape ? Object.keys(shape) : undefined,
  );
  throw new AgentInputError(
    keyPath(first.path.slice(0, 1)),
    lines.map((l) => l.replace(/^[^:]+: /, '')).join('; '),
  );
}

/**
 * Globs relative to the repository root; an absolute path or one that climbs out with `..` is
 * refused, since nothing outside the root is ever written.
 */
export function checkAllowedPaths(globs: readonly string[], root: string): void {
  for (const glob of globs) {
    const parts = glob.replace(/\\/g, '/').split('/');
    if (isAbsolute(glob) || /^[A-Za-z]:/.test(glob) || parts.includes('..'))
      throw new AgentInputError(
        'allowed_paths',
        `"${glob}" is outside the repository root ${root}; give globs relative to it, such as "src/**"`,
      );
  }
}

/** Project names exist, and a test selection names exactly one project. */
export function checkSelection(
  config: Config,
  display: string,
  projects: readonly string[] | undefined,
  tests: readonly string[] | undefined,
): string[] | undefined {
  const names = config.projects.map((p) => p.name);
  for (const name of projects ?? [])
    if (!names.includes(name))
      throw new AgentInputError(
        'projects',
        `unknown project "${name}"; ${display} defines: ${names.join(', ')}`,
      );
  const chosen = projects?.length ? [...projects] : names;
  if (tests?.length && chosen.length !== 1)
    throw new AgentInputError(
      'tests',
      `a test selection needs one project, and ${chosen.length} are gated (${chosen.join(', ')}); name the tests' project in projects`,
    );
  return projects?.length ? [...projects] : undefined;
}
