import { nodeKey, type ReachedNode } from '@suture/core/analysis';
import { innerCallKey } from './js-graph.js';

/** What one test's walk reached: every node, and the nodes reached through a call of a function they define. */
export interface TestReach {
  all: Set<string>;
  inner: Set<string>;
}

/** Splits a walk's reach into every node and the nodes some caller reached by calling a function inside them. */
export function testReach(reached: readonly ReachedNode[], innerCalls: ReadonlySet<string>): TestReach {
  const all = new Set<string>();
  const inner = new Set<string>();
  for (const n of reached) {
    const key = nodeKey(n.node);
    all.add(key);
    const callers = n.callers ?? (n.parent !== undefined ? [n.parent] : []);
    if (callers.some((c) => innerCalls.has(innerCallKey(c, key)))) inner.add(key);
  }
  return { all, inner };
}

function ochiai(key: string, failing: readonly Set<string>[], passing: readonly Set<string>[]): number {
  const ef = failing.filter((s) => s.has(key)).length;
  const ep = passing.filter((s) => s.has(key)).length;
  return ef === 0 ? 0 : ef / Math.sqrt(failing.length * (ef + ep));
}

/**
 * The reach sets the spectrum reads. A factory that returns an object of methods is two pieces of
 * code: its own body, which runs whenever it is called (in every constructor), and the methods,
 * which run only when a test calls them. A bug in a method goes with the tests that call it, not
 * with every test that builds the object, so such a function counts as reached by a test only
 * through its methods when that goes more with the failing tests than counting every call.
 */
export function spectrumReach(
  failing: readonly TestReach[],
  passing: readonly TestReach[],
): { failing: Array<Set<string>>; passing: Array<Set<string>> } {
  const owners = new Set([...failing, ...passing].flatMap((r) => [...r.inner]));
  const byPart = [...owners].filter((key) => {
    const inner = (rs: readonly TestReach[]): Array<Set<string>> => rs.map((r) => r.inner);
    const all = (rs: readonly TestReach[]): Array<Set<string>> => rs.map((r) => r.all);
    return ochiai(key, inner(failing), inner(passing)) > ochiai(key, all(failing), all(passing));
  });
  const sets = (rs: readonly TestReach[]): Array<Set<string>> =>
    rs.map((r) => new Set([...r.all].filter((key) => !byPart.includes(key) || r.inner.has(key))));
  return { failing: sets(failing), passing: sets(passing) };
}
