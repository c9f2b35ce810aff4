/**
 * Replaces a copy's root with the project's in every string of a run's result (test files,
 * traces, messages, the command), so a run in a private copy reads like a run in the project.
 */
export function mapPaths<T>(value: T, from: string, to: string): T {
  if (from === to) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.includes(from) ? v.split(from).join(to) : v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
