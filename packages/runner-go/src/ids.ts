/**
 * Test ids of the Go runner: `<package folder>::<test path>`, the folder relative to the project
 * root (`.` for the root package) and the path as `go test` names it (`TestParse/empty_input`).
 */
export interface GoTestId {
  dir: string;
  /** The test's name and its subtests' names, outermost first. */
  path: string[];
}

export const SEP = '::';

export function formatId(dir: string, test: string): string {
  return `${dir}${SEP}${test}`;
}

/** The parts of an id, or undefined for a string that is not one of this runner's ids. */
export function parseId(id: string): GoTestId | undefined {
  const at = id.indexOf(SEP);
  if (at <= 0) return undefined;
  const test = id.slice(at + SEP.length);
  if (!/^(?:Test|Example|Fuzz)/.test(test)) return undefined;
  return { dir: id.slice(0, at), path: test.split('/') };
}

/** The package pattern `go test` takes for a folder of the project. */
export const packageArg = (dir: string): string => (dir === '.' ? '.' : `./${dir}`);

/** A name matched literally by Go's RE2 (`regexp.QuoteMeta`). */
export function quoteMeta(name: string): string {
  return name.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&');
}

/** One level of a `-run` pattern that matches exactly these names. */
function level(names: readonly string[]): string {
  const unique = [...new Set(names)];
  return unique.length === 1 ? `^${quoteMeta(unique[0]!)}$` : `^(?:${unique.map(quoteMeta).join('|')})$`;
}

/** One `go test` of a package with a `-run` pattern. */
export interface Invocation {
  dir: string;
  run: string;
  /** The ids it was asked for: a test the pattern reaches that was not asked for is not reported. */
  ids: string[];
}

/**
 * The `go test` invocations that run exactly the selected tests: per package, one for the whole
 * tests selected (`^(?:TestA|TestB)$`, their subtests included) and one per group of subtests that
 * share their parent (`^TestA$/^(?:x|y)$`). A subtest selected under a test selected whole is
 * already run by it.
 */
export function planSelection(selection: readonly string[]): {
  invocations: Invocation[];
  unknown: string[];
} {
  const unknown: string[] = [];
  const byDir = new Map<string, Map<string, { path: string[]; id: string }[]>>();
  const whole = new Map<string, Map<string, string>>();
  for (const id of selection) {
    const parsed = parseId(id);
    if (!parsed) {
      unknown.push(id);
      continue;
    }
    if (parsed.path.length === 1) {
      if (!whole.has(parsed.dir)) whole.set(parsed.dir, new Map());
      whole.get(parsed.dir)!.set(parsed.path[0]!, id);
      continue;
    }
    const parent = parsed.path.slice(0, -1).join('/');
    if (!byDir.has(parsed.dir)) byDir.set(parsed.dir, new Map());
    const groups = byDir.get(parsed.dir)!;
    if (!groups.has(parent)) groups.set(parent, []);
    groups.get(parent)!.push({ path: parsed.path, id });
  }
  const invocations: Invocation[] = [];
  for (const dir of new Set([...whole.keys(), ...byDir.keys()])) {
    const tops = whole.get(dir) ?? new Map<string, string>();
    if (tops.size > 0) invocations.push({ dir, run: level([...tops.keys()]), ids: [...tops.values()] });
    for (const [parent, subs] of byDir.get(dir) ?? []) {
      if (tops.has(parent.split('/')[0]!)) continue;
      const prefix = parent.split('/').map((n) => level([n]));
      invocations.push({
        dir,
        run: [...prefix, level(subs.map((s) => s.path.at(-1)!))].join('/'),
        ids: subs.map((s) => s.id),
      });
    }
  }
  return { invocations, unknown };
}

/** Is `id` asked for by `asked`: itself, or a subtest of one asked for? */
export function isAsked(id: string, asked: ReadonlySet<string>): boolean {
  for (let at = id.length; at > 0; at = id.lastIndexOf('/', at - 1))
    if (asked.has(id.slice(0, at))) return true;
  return false;
}
