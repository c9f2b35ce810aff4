import type { ScopeEntry, ScopeRole } from '../api/contracts/failure.js';

/** A place in the code: a file, optionally narrowed to one symbol (function, class, method). */
export interface CodeNode {
  /** Project-relative POSIX path. */
  file: string;
  symbol?: string;
}

export interface CodeEdge {
  to: CodeNode;
  role: ScopeRole;
  /** Why the walk followed this edge, e.g. "test_total calls cart.total". */
  reason: string;
  /**
   * What following the edge costs against `maxDepth`: 1 (the default) for an edge to another
   * file, 0 for one that stays in its file. A call inside a module the scope already holds adds
   * no file, so it is followed to any depth and only ranks lower for its distance.
   */
  cost?: 0 | 1;
}

/** Where a walk starts: an edge into the failing test or a frame of its trace. */
export type WalkSeed = CodeEdge;

export interface WalkOptions {
  /** Edges of cost 1 followed from a seed at most this many times. Seeds are depth 0. */
  maxDepth: number;
  /** Outgoing edges of a node: calls resolved to definitions, includes, imports. */
  expand: (node: CodeNode, depth: number) => Promise<CodeEdge[]>;
  /** Stop after this many distinct nodes (protects against huge graphs). Default 500. */
  maxNodes?: number;
  /** `Date.now()` after which the walk stops and says its scope is incomplete. */
  deadline?: number;
  /**
   * Lets the depth adapt to what the scope can hold: while the walk has reached fewer than
   * `nodes` nodes when it reaches `maxDepth`, it goes on a level deeper, up to `depth`. A small
   * project's chain of calls is followed to its end; a large one keeps `maxDepth`.
   */
  extend?: { nodes: number; depth: number };
}

/** A node the walk reached, with the shortest way there. */
export interface ReachedNode {
  node: CodeNode;
  role: ScopeRole;
  /** Cost-1 edges from the nearest seed (the file-level depth `maxDepth` bounds). */
  depth: number;
  /** Edges of any cost from the nearest seed: how far the call chain is. */
  distance: number;
  /** The reasons it was reached, the first on the shortest way; deduplicated, at most 5. */
  reasons: string[];
  /** `nodeKey` of the node it was first reached from; absent for a seed. */
  parent?: string;
  /**
   * `nodeKey`s of the nodes the walk found an edge to it from, the parent first (at most 8): a
   * function reached first through one caller may also be called by the failing line's callee.
   */
  callers?: string[];
}

export interface WalkResult {
  /** The reached nodes merged per file, nearest first. */
  entries: ScopeEntry[];
  /** Every reached node, in the order the walk reached it. */
  reached: ReachedNode[];
  /** Why the walk stopped before it ran out of edges (a node or time limit), when it did. */
  incomplete?: string;
}

/** Most reasons kept per node or entry: the first ones say why, the rest only repeat it. */
export const MAX_REASONS = 5;
const MAX_CALLERS = 8;

export const nodeKey = (node: CodeNode): string => `${node.file}\0${node.symbol ?? ''}`;

/** A scope of fewer functions than this at the project's depth is walked deeper. */
const SMALL_SCOPE = 300;
/** How many levels past the project's depth a small scope may go. */
const EXTRA_DEPTH = 3;

/**
 * The depth extension an analyzer gives its walk (`WalkOptions.extend`) for a project's
 * `scopeDepth`: a scope still small at that depth goes on, up to three levels deeper, so a bug
 * four files from the test is reached in a small project. Depth 0 (the seeds alone) stays 0.
 */
export function depthExtension(scopeDepth: number): WalkOptions['extend'] {
  return scopeDepth === 0 ? undefined : { nodes: SMALL_SCOPE, depth: Math.min(10, scopeDepth + EXTRA_DEPTH) };
}

/**
 * Walks the call/include graph from the seeds, breadth first by depth (edges within a file cost
 * nothing, see `CodeEdge.cost`), within a node and a time budget. Language analyzers supply
 * `expand`; the walk, the bounds and the bookkeeping are shared.
 */
export async function walkCodeGraph(seeds: readonly WalkSeed[], options: WalkOptions): Promise<WalkResult> {
  const maxNodes = options.maxNodes ?? 500;
  const reached = new Map<string, ReachedNode>();
  let incomplete: string | undefined;
  let level: Array<{ edge: CodeEdge; distance: number; parent?: string }> = seeds.map((edge) => ({
    edge,
    distance: 0,
  }));
  let limit = options.maxDepth;
  for (let depth = 0; level.length > 0 && !incomplete; depth++) {
    const next: typeof level = [];
    // edges past the depth limit, walked when the scope is still small at the limit
    const deeper: typeof level = [];
    // cost-0 edges join the level being walked, so they are reached at the depth of their source
    for (let i = 0; i < level.length; i++) {
      const { edge, distance, parent } = level[i]!;
      const key = nodeKey(edge.to);
      const known = reached.get(key);
      if (known) {
        if (!known.reasons.includes(edge.reason) && known.reasons.length < MAX_REASONS)
          known.reasons.push(edge.reason);
        if (parent !== undefined && known.callers && !known.callers.includes(parent))
          if (known.callers.length < MAX_CALLERS) known.callers.push(parent);
        continue;
      }
      if (reached.size >= maxNodes) {
        incomplete = `the walk stopped at its limit of ${maxNodes} functions`;
        break;
      }
      if (options.deadline !== undefined && Date.now() > options.deadline) {
        incomplete = `the analysis ran out of its time limit after ${reached.size} functions`;
        break;
      }
      reached.set(key, {
        node: edge.to,
        role: edge.role,
        depth,
        distance,
        reasons: [edge.reason],
        ...(parent !== undefined ? { parent, callers: [parent] } : {}),
      });
      for (const out of await options.expand(edge.to, depth)) {
        const cost = out.cost ?? 1;
        const step = { edge: out, distance: distance + 1, parent: key };
        if (cost === 0) level.push(step);
        else (depth >= limit ? deeper : next).push(step);
      }
    }
    const extend = options.extend;
    if (deeper.length > 0 && extend && reached.size < extend.nodes && limit < extend.depth) {
      limit = depth + 1;
      next.push(...deeper);
    }
    level = next;
  }
  const nodes = [...reached.values()];
  return { entries: entriesOf(nodes), reached: nodes, ...(incomplete ? { incomplete } : {}) };
}

/**
 * Breadth-first walk of the call/include graph from the seeds, merged per file into scope entries
 * (symbols and reasons accumulated, the smallest depth kept). See `walkCodeGraph` for the nodes,
 * their distances and whether the walk was cut short.
 */
export async function walkGraph(seeds: readonly WalkSeed[], options: WalkOptions): Promise<ScopeEntry[]> {
  return (await walkCodeGraph(seeds, options)).entries;
}

function entriesOf(nodes: readonly ReachedNode[]): ScopeEntry[] {
  const entries = new Map<string, ScopeEntry>();
  for (const n of nodes) {
    const existing = entries.get(n.node.file);
    if (!existing) {
      entries.set(n.node.file, {
        file: n.node.file,
        symbols: n.node.symbol ? [n.node.symbol] : [],
        role: n.role,
        reasons: n.reasons.slice(0, MAX_REASONS),
        depth: n.depth,
      });
      continue;
    }
    if (n.node.symbol && !existing.symbols.includes(n.node.symbol)) existing.symbols.push(n.node.symbol);
    for (const r of n.reasons)
      if (!existing.reasons.includes(r) && existing.reasons.length < MAX_REASONS) existing.reasons.push(r);
    if (n.depth < existing.depth) {
      existing.depth = n.depth;
      existing.role = n.role;
    }
  }
  return [...entries.values()].sort((a, b) => a.depth - b.depth || a.file.localeCompare(b.file));
}

/** Merges scope entries from several sources (walk, trace frames) into one list, per file. */
export function mergeScopeEntries(...lists: ReadonlyArray<readonly ScopeEntry[]>): ScopeEntry[] {
  const merged = new Map<string, ScopeEntry>();
  for (const list of lists) {
    for (const entry of list) {
      const existing = merged.get(entry.file);
      if (!existing) {
        merged.set(entry.file, {
          ...entry,
          symbols: [...entry.symbols],
          reasons: [...new Set(entry.reasons)].slice(0, MAX_REASONS),
        });
        continue;
      }
      for (const s of entry.symbols) if (!existing.symbols.includes(s)) existing.symbols.push(s);
      for (const r of entry.reasons)
        if (!existing.reasons.includes(r) && existing.reasons.length < MAX_REASONS) existing.reasons.push(r);
      if (entry.depth < existing.depth) {
        existing.depth = entry.depth;
        existing.role = entry.role;
      }
    }
  }
  return [...merged.values()].sort((a, b) => a.depth - b.depth || a.file.localeCompare(b.file));
}
