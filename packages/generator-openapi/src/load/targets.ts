import { readFile } from 'node:fs/promises';
import { XMLParser } from 'fast-xml-parser';
import type { Contract } from '../emit/contract.js';
import { caseIdOf } from '../judge/contract-file.js';

/** Test ids of results.xml (`file::name`) with whether each passed. */
export async function readResults(file: string): Promise<Map<string, boolean>> {
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(
    await readFile(file, 'utf8'),
  ) as Record<string, unknown>;
  const out = new Map<string, boolean>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    const n = node as Record<string, unknown>;
    if (typeof n.name === 'string' && ('classname' in n || 'file' in n) && !('testcase' in n)) {
      const failed = 'failure' in n || 'error' in n || 'skipped' in n;
      const id = n.name.includes('::') ? n.name : `${String(n.file ?? n.classname)}::${n.name}`;
      out.set(id, !failed);
    }
    for (const [k, v] of Object.entries(n))
      if (k === 'testsuite' || k === 'testsuites' || k === 'testcase') visit(v);
  };
  visit(xml);
  return out;
}

/**
 * The operations to load: those whose every case passed (a case that failed or found a bug keeps
 * its operation out), reads and creates only, since a load of deletes or updates changes what the
 * others read. `only` names operations (ids or `METHOD /path`) to take instead.
 */
export function loadTargets(
  contract: Contract,
  results: ReadonlyMap<string, boolean>,
  only?: readonly string[],
): string[] {
  if (only && only.length > 0)
    return Object.entries(contract.operations)
      .filter(([id, op]) => only.includes(id) || only.includes(`${op.method} ${op.path}`))
      .map(([id]) => id);
  const verdicts = new Map<string, boolean[]>();
  for (const [test, passed] of results) {
    const caseId = caseIdOf(test);
    const c = caseId ? contract.cases[caseId] : undefined;
    if (!c) continue;
    verdicts.set(c.operation, [...(verdicts.get(c.operation) ?? []), passed]);
  }
  return Object.entries(contract.operations)
    .filter(
      ([id, op]) =>
        (op.method === 'GET' || op.method === 'POST') &&
        (verdicts.get(id) ?? []).length > 0 &&
        verdicts.get(id)!.every(Boolean),
    )
    .map(([id]) => id);
}
