import type { RankedSymbol, ScopeEntry, ScopeRole } from '../api/contracts/failure.js';
import { MAX_REASONS, nodeKey, type CodeNode, type ReachedNode } from './graph-walk.js';

/** What an analyzer knows about a failure that says where its cause is likelier to be. */
export interface RankInput {
  /** The walk from the failing tests and the failure's frames (`walkCodeGraph(...).reached`). */
  reached: readonly ReachedNode[];
  /** Project frames of the failure, innermost first: its location, then the trace's frames. */
  frames: readonly CodeNode[];
  /** Functions called on the line that failed: an assertion in the test, a raising statement. */
  onFailingLine?: readonly CodeNode[];
  /** For each failing test of the group, the `nodeKey`s its own walk reached. */
  failingReach?: ReadonlyArray<ReadonlySet<string>>;
  /** For each passing test of the same test files, the `nodeKey`s its walk reached. */
  passingReach?: ReadonlyArray<ReadonlySet<string>>;
  /**
   * What the tests executed when the analyzer could trace them (a coverage run of the failing
   * tests and passing tests of the same files): `nodeKey`s per failing and per passing test. It
   * outweighs the static reach, and lets the spectrum weigh the frames too.
   */
  executed?: {
    failing: ReadonlyArray<ReadonlySet<string>>;
    passing: ReadonlyArray<ReadonlySet<string>>;
  };
  isTestFile: (file: string) => boolean;
  /** 1-based first and last line of a symbol's definition, when the analyzer read it. */
  lines?: (node: CodeNode) => { line: number; endLine: number } | undefined;
  /** Files in scope for other reasons (a compiler diagnostic, a build file), unranked. */
  extra?: readonly ScopeEntry[];
  /**
   * The walk's depth limit (the project's `scopeDepth`). Functions only the trace saw join the
   * scope one call away from the test, so at depth 0 the scope keeps the seeds alone.
   */
  maxDepth?: number;
}

/** A failing line's callees lend their suspicion to their own callees, less at each step. */
const LINE_DECAY = 0.6;
const LINE_REACH = 2;
/**
 * Code in test files ranks below all code under test, frames included: a fix belongs in the code
 * far more often than in the test, and the failing test is sent to a fixer first anyway.
 */
const TEST_FACTOR = 0.1;

interface Scored {
  node: CodeNode;
  role: ScopeRole;
  depth: number;
  score: number;
  reason: string;
  reasons: string[];
}

/**
 * The spectrum's share of a traced score grows with the runs it is read from: from a few tests it
 * is a hint beside the frames, from a hundred (subtests of a data-driven test) it is the best
 * evidence there is, and a frame every passing run also went through says little.
 */
const MIN_SPECTRUM_WEIGHT = 0.45;
const MAX_SPECTRUM_WEIGHT = 0.75;
const RUNS_FOR_MAX_WEIGHT = 100;

function spectrumWeight(runs: number): number {
  const ramp = Math.min(1, Math.max(0, (runs - 10) / (RUNS_FOR_MAX_WEIGHT - 10)));
  return MIN_SPECTRUM_WEIGHT + (MAX_SPECTRUM_WEIGHT - MIN_SPECTRUM_WEIGHT) * ramp;
}

function frameScore(index: number): number {
  return 1 - 0.02 * Math.min(index, 5);
}

/** Ochiai's suspiciousness: how much more a node goes with the failing tests than the passing ones. */
function ochiaiOf(
  key: string,
  failing: ReadonlyArray<ReadonlySet<string>>,
  passing: ReadonlyArray<ReadonlySet<string>>,
): { value: number; ef: number; ep: number } {
  const ef = failing.filter((s) => s.has(key)).length;
  const ep = passing.filter((s) => s.has(key)).length;
  return { value: failing.length > 0 && ef > 0 ? ef / Math.sqrt(failing.length * (ef + ep)) : 0, ef, ep };
}

/**
 * Ranks a walked scope, function by function, by the evidence of the failure, and returns it as
 * scope entries best first (each with its score and its functions' ranking):
 *
 * 1. the failure's frames in the code under test, innermost first (0.9 to 1);
 * 2. then functions by a blend, scaled below the frames, of: the spectrum (Ochiai: reached by the
 *    failing tests, and by few of the passing tests of the same files), being called on the
 *    failing line (or by such a function, less for each step), and call distance from the test;
 * 3. code in test files, frames included, below all code under test (see `belowCodeUnderTest`).
 *
 * When the tests were traced (`executed`), what they ran decides more than where they stopped: a
 * blend of the frame (innermost first), the spectrum of what ran (Ochiai), the failing line and
 * call distance ranks every function, so a bug that returned a wrong value before the code that
 * raised outranks that code; functions the failing tests ran and the walk missed join the scope.
 *
 * Reasons are the strongest evidence first, deduplicated and capped.
 */
export function rankScope(input: RankInput): ScopeEntry[] {
  const failing = input.failingReach ?? [];
  const passing = input.passingReach ?? [];
  const frameIndex = new Map<string, number>();
  input.frames.forEach((f, i) => {
    const key = nodeKey(f);
    if (!frameIndex.has(key)) frameIndex.set(key, i);
  });
  const lineHits = new Set((input.onFailingLine ?? []).map(nodeKey));
  const byKey = new Map(input.reached.map((n) => [nodeKey(n.node), n]));
  // the fewest calls from a callee of the failing line, through any caller the walk saw
  const lineSignal = (n: ReachedNode): number => {
    let level: ReachedNode[] = [n];
    const visited = new Set<string>();
    for (let step = 0; level.length > 0 && step <= LINE_REACH; step++) {
      if (level.some((r) => lineHits.has(nodeKey(r.node)))) return LINE_DECAY ** step;
      const next: ReachedNode[] = [];
      for (const r of level)
        for (const c of r.callers ?? (r.parent !== undefined ? [r.parent] : []))
          if (!visited.has(c) && byKey.has(c)) {
            visited.add(c);
            next.push(byKey.get(c)!);
          }
      level = next;
    }
    return 0;
  };

  const scored: Scored[] = [];
  const seen = new Set<string>();
  const add = (node: CodeNode, role: ScopeRole, depth: number, walkReasons: readonly string[]): void => {
    const key = nodeKey(node);
    if (seen.has(key)) return;
    seen.add(key);
    const frame = frameIndex.get(key);
    const reachedNode = byKey.get(key);
    const line = reachedNode ? lineSignal(reachedNode) : 0;
    // a node the walk did not reach has no known distance: no closeness to speak for it
    const distance = reachedNode?.distance ?? 0;
    const proximity = distance === 0 ? 0 : 1 / distance;
    const frameReason =
      frame === undefined
        ? undefined
        : frame === 0
          ? 'where the failure was raised'
          : `frame ${frame + 1} of the trace`;
    const lineReason =
      line === 1
        ? 'called on the failing line'
        : line > 0
          ? 'called by a function the failing line calls'
          : undefined;
    let score: number;
    let strongest: string | undefined;
    if (input.executed && input.executed.failing.length > 0) {
      // traced: the spectrum of what ran weighs every node, frames included
      const dyn = ochiaiOf(key, input.executed.failing, input.executed.passing);
      const frameSignal = frame === undefined ? 0 : 1 - 0.1 * Math.min(frame, 5);
      const weight = spectrumWeight(input.executed.failing.length + input.executed.passing.length);
      const rest = (1 - weight) / (1 - MIN_SPECTRUM_WEIGHT);
      score = weight * dyn.value + rest * (0.35 * frameSignal + 0.1 * line + 0.1 * proximity);
      const spectrum =
        dyn.ef > 0
          ? `run by ${dyn.ef} of ${input.executed.failing.length} failing tests and ${dyn.ep} of ${input.executed.passing.length} passing tests`
          : undefined;
      strongest = frameReason ?? (dyn.value >= 0.5 ? spectrum : undefined) ?? lineReason ?? spectrum;
    } else if (frame !== undefined) {
      score = frameScore(frame);
      strongest = frameReason;
    } else {
      const stat = ochiaiOf(key, failing, passing);
      score = 0.85 * (0.4 * stat.value + 0.35 * line + 0.25 * proximity);
      strongest =
        lineReason ??
        (stat.ef > 0 && passing.length > 0 && stat.ep === 0
          ? `reached by the failing tests and by none of ${passing.length} passing tests of the same files`
          : undefined);
    }
    scored.push({
      node,
      role,
      depth,
      score: Math.min(1, score),
      reason: strongest ?? walkReasons[0] ?? 'reached from the failing test',
      reasons: strongest ? [strongest, ...walkReasons] : [...walkReasons],
    });
  };
  // frames first, so a frame the walk did not reach still counts
  for (const f of input.frames) {
    const walked = byKey.get(nodeKey(f));
    add(f, walked?.role ?? (input.isTestFile(f.file) ? 'test' : 'source'), 0, walked?.reasons ?? []);
  }
  for (const n of input.reached) add(n.node, n.role, n.depth, n.reasons);
  // what the failing tests were seen to run but the walk missed (dynamic dispatch, operators)
  const tracedJoin = (input.maxDepth ?? Infinity) >= 1;
  for (const run of tracedJoin ? (input.executed?.failing ?? []) : [])
    for (const key of run) {
      if (seen.has(key)) continue;
      const [file, symbol] = key.split('\0') as [string, string];
      const node = { file, ...(symbol ? { symbol } : {}) };
      add(node, input.isTestFile(file) ? 'test' : 'source', 1, ['run by a failing test (traced)']);
    }
  return toEntries(belowCodeUnderTest(scored, input.isTestFile), input);
}

/**
 * Scales the scores of code in test files below the lowest positive score of code under test,
 * their order kept. A fixed factor is not enough: when the spectrum says little (one failing test
 * against hundreds of passing ones running the same code), every function under test scores low
 * and the failing test itself, a frame, would outrank most of them.
 */
function belowCodeUnderTest(scored: readonly Scored[], isTestFile: (file: string) => boolean): Scored[] {
  const lowest = Math.min(
    1,
    ...scored.filter((s) => !isTestFile(s.node.file) && s.score > 0).map((s) => s.score),
  );
  return scored.map((s) => (isTestFile(s.node.file) ? { ...s, score: s.score * TEST_FACTOR * lowest } : s));
}

function toEntries(scored: readonly Scored[], input: RankInput): ScopeEntry[] {
  const entries = new Map<string, ScopeEntry & { ranking: RankedSymbol[]; score: number }>();
  const ordered = [...scored].sort((a, b) => b.score - a.score);
  for (const s of ordered) {
    const score = Math.round(s.score * 1000) / 1000;
    let entry = entries.get(s.node.file);
    if (!entry) {
      entry = {
        file: s.node.file,
        symbols: [],
        role: s.role,
        reasons: [],
        depth: s.depth,
        score,
        ranking: [],
      };
      entries.set(s.node.file, entry);
    }
    if (s.depth < entry.depth) entry.depth = s.depth;
    // code in a test file reached as a callee is still on the test side
    if (entry.role === 'source' && input.isTestFile(s.node.file)) entry.role = 'test';
    for (const r of s.reasons)
      if (!entry.reasons.includes(r) && entry.reasons.length < MAX_REASONS) entry.reasons.push(r);
    if (s.node.symbol && !entry.symbols.includes(s.node.symbol)) {
      entry.symbols.push(s.node.symbol);
      const where = input.lines?.(s.node);
      entry.ranking.push({
        symbol: s.node.symbol,
        score,
        reason: s.reason.slice(0, 200),
        ...(where ? { line: where.line, endLine: Math.max(where.line, where.endLine) } : {}),
      });
    }
  }
  const out: ScopeEntry[] = [...entries.values()].map((e) =>
    e.ranking.length > 0 ? e : { ...e, ranking: undefined },
  );
  for (const x of input.extra ?? []) {
    const same = out.find((e) => e.file === x.file);
    if (!same) out.push({ ...x, reasons: [...new Set(x.reasons)].slice(0, MAX_REASONS) });
    else
      for (const r of x.reasons)
        if (!same.reasons.includes(r) && same.reasons.length < MAX_REASONS) same.reasons.push(r);
  }
  return out.map((e) => (e.ranking === undefined ? withoutRanking(e) : e));
}

function withoutRanking(entry: ScopeEntry): ScopeEntry {
  const { ranking: _ranking, ...rest } = entry;
  return rest;
}
