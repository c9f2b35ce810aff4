import { isAbsolute, join, relative } from 'node:path';
import type { SelectionRecord, SelectionRules } from '../../api/contracts/selection.js';
import { toPosix } from '../../safety/paths.js';
import { picomatch } from '../../text/glob.js';
import { changeBlocks, reach } from './hunks.js';
import { parseRanges } from './lines.js';

/** What the selection rules read; the file access is injected so the rules stay pure. */
export interface PlanInput {
  /** Absolute repository root (the config file's folder): record paths are relative to it. */
  repoRoot: string;
  /** Absolute project root. */
  projectRoot: string;
  /** Absolute roots of the other projects of the config. */
  otherRoots: readonly string[];
  record: SelectionRecord | undefined;
  rules: SelectionRules;
  /** Repository-relative files that differ from the base and from the trees the record saw. */
  changed: readonly string[];
  /** Of those, the files that differ from the base commit: the change the user asked about. */
  baseChanged: ReadonlySet<string>;
  /** A repository-relative file as the base commit holds it; undefined when it had none. */
  base(file: string): Promise<string | undefined>;
  /** Can the runner run a whole test file given as a selection entry? */
  fileSelection: boolean;
  /** The current bytes of a repository-relative file; undefined when it is gone. */
  current(file: string): Promise<{ sha256: string; text: string } | undefined>;
  /** The recorded version of a file by its hash; undefined when the store lacks it. */
  blob(hash: string): Promise<string | undefined>;
}

export interface PlanReason {
  file: string;
  effect: string;
}

export type Plan =
  | { basis: 'all'; fallback: string; reasons: PlanReason[] }
  | {
      basis: 'record';
      /** Test ids and (project-relative) test files to run. */
      selection: string[];
      /** Tests the record knows. */
      known: number;
      reasons: PlanReason[];
    };

const MAX_REASONS = 40;

function inside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** A file of a project nested inside this one: the deepest project root holding a file owns it. */
function nestedOther(input: PlanInput, abs: string): boolean {
  return input.otherRoots.some(
    (r) => r.length > input.projectRoot.length && inside(input.projectRoot, r) && inside(r, abs),
  );
}

function inOther(input: PlanInput, abs: string): boolean {
  return input.otherRoots.some((r) => inside(r, abs));
}

/**
 * Which tests of a project a change can reach, from its selection record. A test is selected when
 * the change touches a line it ran (or the code right around a changed line that holds none), its
 * own file, or when it started processes the record cannot follow. Every test runs when a change
 * touches code that runs for all tests that load a file (module-level code), a file of `runAll`
 * (build, dependency and shared test-setup files), a file the record does not know inside the
 * project or outside every project (data, configuration, new files: what coverage cannot see),
 * or when the record is missing, made under another toolchain, or lacks a recorded version.
 * Changes inside another project's root that no recorded test ran are that project's.
 */
export async function planSelection(input: PlanInput): Promise<Plan> {
  const reasons: PlanReason[] = [];
  const all = (fallback: string): Plan => ({ basis: 'all', fallback, reasons });
  const { record, rules } = input;
  if (!record || Object.keys(record.tests).length === 0)
    return all(
      'no selection record for this project yet: a green run with recording makes one (`suture run --changed` and `select: "changed"` record, `record: true` records every run)',
    );
  if (record.toolchain !== rules.toolchain)
    return all(`the toolchain changed since the record was made (${record.toolchain} -> ${rules.toolchain})`);
  const runAll = rules.runAll.length > 0 ? picomatch(rules.runAll, { dot: true }) : () => false;
  const projectRel = (file: string): string =>
    toPosix(relative(input.projectRoot, join(input.repoRoot, file)));

  for (const file of input.changed) {
    const abs = join(input.repoRoot, file);
    if (record.files[file]) continue;
    // another project's file, or one outside the config's folder, that no recorded test ran
    if (
      nestedOther(input, abs) ||
      (!inside(input.projectRoot, abs) && (!inside(input.repoRoot, abs) || inOther(input, abs)))
    )
      continue;
    if (inside(input.projectRoot, abs) && runAll(projectRel(file)))
      return all(
        `${file} changed: a build, dependency or shared test-setup file, which every test depends on`,
      );
    return all(
      `${file} changed and no recorded test ran it: coverage cannot see what reads it (data, configuration, a new or unloaded file)`,
    );
  }
  const selected = new Set<string>();
  const wholeFiles = new Set<string>();
  const note = (file: string, effect: string): void => {
    if (reasons.length < MAX_REASONS) reasons.push({ file, effect });
  };
  // per file version: the lines a change reaches, once
  const reached = new Map<string, Set<number> | undefined>();
  for (const [file, versions] of Object.entries(record.files)) {
    const now = await input.current(file);
    const sinceBase = input.baseChanged.has(file);
    for (const [hash, roles] of Object.entries(versions)) {
      if (now?.sha256 === hash && !sinceBase) continue;
      if (!now) return all(`${file} was deleted, and recorded tests ran it`);
      if (inside(input.projectRoot, join(input.repoRoot, file)) && runAll(projectRel(file)))
        return all(
          `${file} changed: a build, dependency or shared test-setup file, which every test depends on`,
        );
      // The change is read in the recorded version's lines: from it to the file now when the file
      // changed since the record, and from the base to it when the record saw the file as it is
      // now (the lines the change since the base added or altered).
      let blocks;
      if (now.sha256 !== hash) {
        const before = await input.blob(hash);
        if (before === undefined)
          return all(
            `${file} changed and the store lacks the version the record names (${hash.slice(0, 12)})`,
          );
        blocks = changeBlocks(before, now.text);
      } else blocks = changeBlocks(now.text, (await input.base(file)) ?? '');
      const shared = parseRanges(roles.shared);
      const code = roles.code !== undefined ? parseRanges(roles.code) : codeOf(record, file, hash, shared);
      const r = reach(blocks, shared, code);
      if (r.shared !== undefined)
        return all(`${file}:${r.shared} changed: code that runs for every test that loads the file`);
      const key = `${file}\0${hash}`;
      reached.set(key, new Set([...(reached.get(key) ?? []), ...r.touched]));
    }
  }

  for (const [id, test] of Object.entries(record.tests)) {
    if (test.opaque) {
      note(test.file ?? id, `${id} starts processes the record cannot follow: always selected`);
      selected.add(id);
      continue;
    }
    for (const [file, ran] of Object.entries(test.ran)) {
      const touched = reached.get(`${file}\0${ran.sha256}`);
      if (!touched) continue;
      const lines = parseRanges(ran.lines);
      const hit = [...touched].find((n) => lines.has(n));
      if (hit !== undefined) {
        if (!selected.has(id)) note(file, `line ${hit} ran in ${id}`);
        selected.add(id);
      }
    }
    // its own file changed: the test and any new one beside it run
    if (test.file) {
      const own = test.ran[test.file];
      const now = await input.current(test.file);
      if (!own || now?.sha256 !== own.sha256 || input.baseChanged.has(test.file)) {
        selected.add(id);
        wholeFiles.add(projectRel(test.file));
      }
    }
  }

  if (wholeFiles.size > 0 && !input.fileSelection)
    return all('a changed test file may hold new tests, and the runner cannot run a file');
  const byFile = [...wholeFiles];
  const ids = [...selected].filter((id) => {
    const file = record.tests[id]?.file;
    return !file || !wholeFiles.has(projectRel(file));
  });
  return {
    basis: 'record',
    selection: [...byFile.sort(), ...ids.sort()],
    known: Object.keys(record.tests).length,
    reasons,
  };
}

/** Without the runner's word on which lines hold code: every line a test ran or the file shares. */
function codeOf(record: SelectionRecord, file: string, hash: string, shared: Set<number>): Set<number> {
  const code = new Set(shared);
  for (const t of Object.values(record.tests)) {
    const ran = t.ran[file];
    if (ran?.sha256 === hash) for (const n of parseRanges(ran.lines)) code.add(n);
  }
  return code;
}
