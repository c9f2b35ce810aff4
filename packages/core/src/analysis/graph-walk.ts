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
}

/** Where a walk starts: an edge into the failing test or a frame of its trace. */
export type WalkSeed = CodeEdge;

export interface WalkOptions {
  /** Edges followed from a seed at most this many times. Seeds are depth 0. */
  maxDepth: number;
  /** Outgoing edges of a node: calls resolved to definitions, includes, imports. */
  expand: (node: CodeNode, depth: number) => Promise<CodeEdge[]>;
  /** Stop after this many distinct nodes (protects against huge graphs). Default 500. */
  maxNodes?: number;
}

/**
 * Breadth-first walk of the call/include graph from the seeds, merged per file into scope entries
 * (symbols and reasons accumulated, the smallest depth kept). Language analyzers supply `expand`;
 * the walk, the bounds and the bookkeeping are shared.
 */
export async function walkGraph(seeds: readonly WalkSeed[], options: WalkOptions): Promise<ScopeEntry[]> {
  const maxNodes = options.maxNodes ?? 500;
  const entries = new Map<string, ScopeEntry>();
  const seen = new Set<string>();
  let frontier: Array<{ edge: CodeEdge; depth: number }> = seeds.map((edge) => ({ edge, depth: 0 }));

  while (frontier.length > 0) {
    const next: Array<{ edge: CodeEdge; depth: number }> = [];
    for (const { edge, depth } of frontier) {
      addToEntries(entries, edge, depth);
      const key = nodeKey(edge.to);
      if (seen.has(key)) continue;
      seen.add(key);
      if (seen.size >= maxNodes || depth >= options.maxDepth) continue;
      for (const out of await options.expand(edge.to, depth)) {
        if (!seen.has(nodeKey(out.to))) next.push({ edge: out, depth: depth + 1 });
        else addToEntries(entries, out, depth + 1);
      }
    }
    frontier = next;
  }
  return [...entries.values()].sort((a, b) => a.depth - b.depth || a.file.localeCompare(b.file));
}

function nodeKey(node: CodeNode): string {
  return `${node.file}\0${node.symbol ?? ''}`;
}

function addToEntries(entries: Map<string, ScopeEntry>, edge: CodeEdge, depth: number): void {
  const existing = entries.get(edge.to.file);
  if (!existing) {
    entries.set(edge.to.file, {
      file: edge.to.file,
      symbols: edge.to.symbol ? [edge.to.symbol] : [],
      role: edge.role,
      reasons: [edge.reason],
      depth,
    });
    return;
  }
  if (edge.to.symbol && !existing.symbols.includes(edge.to.symbol)) existing.symbols.push(edge.to.symbol);
  if (!existing.reasons.includes(edge.reason) && existing.reasons.length < 8)
    existing.reasons.push(edge.reason);
  if (depth < existing.depth) {
    existing.depth = depth;
    existing.role = edge.role;
  }
}

/** Merges scope entries from several sources (walk, trace frames) into one list, per file. */
export function mergeScopeEntries(...lists: ReadonlyArray<readonly ScopeEntry[]>): ScopeEntry[] {
  const merged = new Map<string, ScopeEntry>();
  for (const list of lists) {
    for (const entry of list) {
      const existing = merged.get(entry.file);
      if (!existing) {
        merged.set(entry.file, { ...entry, symbols: [...entry.symbols], reasons: [...entry.reasons] });
        continue;
      }
      for (const s of entry.symbols) if (!existing.symbols.includes(s)) existing.symbols.push(s);
      for (const r of entry.reasons) if (!existing.reasons.includes(r)) existing.reasons.push(r);
      if (entry.depth < existing.depth) {
        existing.depth = entry.depth;
        existing.role = entry.role;
      }
    }
  }
  return [...merged.values()].sort((a, b) => a.depth - b.depth || a.file.localeCompare(b.file));
}
