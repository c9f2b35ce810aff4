/** Display helpers shared by the components: one wording of durations, money and counts. */

export function duration(ms: number | undefined): string {
  if (ms === undefined) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function cost(usd: number): string {
  return usd === 0 ? '$0' : usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

const numbers = new Intl.NumberFormat('en');
export function count(n: number): string {
  return numbers.format(n);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

export function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0] ?? '';
}

/** `file:line` of a location, or '' when the failure has none. */
export function where(location: { file: string; line?: number } | undefined): string {
  if (!location) return '';
  return location.line ? `${location.file}:${location.line}` : location.file;
}

/** A stable id for an element of a failure group (ids may hold ':' and '/', which are fine in HTML ids). */
export function domId(...parts: Array<string | number>): string {
  return parts.join('--').replace(/[^\w:.-]+/g, '_');
}
