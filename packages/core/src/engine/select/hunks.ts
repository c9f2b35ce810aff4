import { createRequire } from 'node:module';

/** jsdiff, loaded by the first comparison: a run that selects nothing by change never loads it. */
function diffLines(): typeof import('diff').diffLines {
  return (createRequire(import.meta.url)('diff') as typeof import('diff')).diffLines;
}

/** One run of changed lines of the recorded version: lines `from`..`to` replaced or removed, or (`to` < `from`) lines inserted after line `to`. */
export interface ChangeBlock {
  from: number;
  to: number;
}

/** Where `after` differs from `before`, in the line numbers of `before`. */
export function changeBlocks(before: string, after: string): ChangeBlock[] {
  const blocks: ChangeBlock[] = [];
  let line = 1;
  let open: ChangeBlock | undefined;
  for (const part of diffLines()(before, after)) {
    const count = part.count ?? 0;
    if (!part.added && !part.removed) {
      open = undefined;
      line += count;
      continue;
    }
    if (!open) {
      open = { from: line, to: line - 1 };
      blocks.push(open);
    }
    if (part.removed) {
      open.to = line + count - 1;
      line += count;
    }
  }
  return blocks;
}

/** What a change to one version of a file reaches, judged by its lines' roles. */
export interface BlockReach {
  /** A line whose code runs for every test that loads the file (the first such), when one is touched. */
  shared?: number;
  /** Lines a test must have run to be reached: the changed ones and their nearest code neighbours. */
  touched: Set<number>;
}

function nearest(code: readonly number[], line: number, dir: -1 | 1): number | undefined {
  // code is sorted; a linear scan is fine for the few blocks a change has
  if (dir < 0) {
    for (let i = code.length - 1; i >= 0; i--) if (code[i]! <= line) return code[i];
    return undefined;
  }
  for (const n of code) if (n >= line) return n;
  return undefined;
}

/**
 * The lines of a recorded version a change reaches. A changed line that holds code reaches the
 * tests that ran it; a changed line between code (a blank, a comment, an `else:`) and an
 * insertion also reach the tests that ran the code just before or after, which is where control
 * flows through the change. A touched shared line (module-level code) reaches every test.
 */
export function reach(blocks: readonly ChangeBlock[], shared: Set<number>, code: Set<number>): BlockReach {
  const sortedCode = [...code].sort((a, b) => a - b);
  const touched = new Set<number>();
  let sharedHit: number | undefined;
  for (const b of blocks) {
    let gap = b.to < b.from;
    for (let n = b.from; n <= b.to; n++) {
      touched.add(n);
      if (shared.has(n)) sharedHit ??= n;
      if (!code.has(n)) gap = true;
    }
    // the code right around the change: control reaches the change through it
    const before = nearest(sortedCode, b.from - 1, -1);
    const after = nearest(sortedCode, Math.max(b.to, b.from - 1) + 1, 1);
    for (const n of [before, after]) {
      if (n === undefined) continue;
      touched.add(n);
      if (gap && shared.has(n)) sharedHit ??= n;
    }
    if (gap && before === undefined && after === undefined) sharedHit ??= b.from;
  }
  return { touched, ...(sharedHit !== undefined ? { shared: sharedHit } : {}) };
}
