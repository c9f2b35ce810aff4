import { typedCell, type DataMapping } from '../data/mapping.js';
import type { Operation } from '../spec/model.js';
import type { CallSpec } from './case-types.js';
import { bindingsOf, successStatus, validCall, type CaseContext, type PlannedCase } from './cases.js';
import { snake } from './names.js';
import type { Resource } from './resources.js';

/** A data-driven case: its ancestors created inline (with the row's values), then the call. */
export interface DataSpec {
  steps: Array<{ resource: Resource; call: CallSpec }>;
  row: string;
}

const itemVar = (r: Resource): string => `${r.fixture}_item`;

function withRow(
  ctx: CaseContext,
  op: Operation,
  row: Record<string, string>,
  mapping: DataMapping,
): CallSpec {
  const { call } = validCall(ctx, op, itemVar);
  const json =
    call.json && typeof call.json === 'object' && !Array.isArray(call.json)
      ? { ...(call.json as Record<string, unknown>) }
      : call.json;
  const pathArgs = { ...call.pathArgs };
  const query = { ...call.query };
  for (const { column, matches } of mapping.columns) {
    const cell = row[column];
    if (cell === undefined || cell === '') continue;
    for (const m of matches.filter((x) => x.operation === op.id)) {
      const value = typedCell(cell, m.schema);
      if (m.in === 'body' && json && typeof json === 'object')
        (json as Record<string, unknown>)[m.name] = value;
      else if (m.in === 'path') pathArgs[m.name] = value;
      else if (m.in === 'query') query[m.name] = value;
    }
  }
  return { ...call, pathArgs, query, ...('json' in call ? { json } : {}) };
}

/** The ancestors an operation's request needs, parents first. */
function ancestors(ctx: CaseContext, op: Operation, seen = new Set<string>()): Resource[] {
  const out: Resource[] = [];
  for (const { resource } of bindingsOf(ctx, op)) {
    if (seen.has(resource.name) || resource.create === op.id) continue;
    seen.add(resource.name);
    const creator = ctx.model.operations.find((o) => o.id === resource.create)!;
    out.push(...ancestors(ctx, creator, seen), resource);
  }
  return out;
}

/**
 * Complete mode: a test per CSV row. The row names its operation (`api`: an operationId or
 * `METHOD /path`), or it is the operation its filled columns match most; its values fill the
 * request and the requests that create what it needs, and `expected_status` is what it must
 * answer (a success of the operation otherwise).
 */
export function dataCases(
  ctx: CaseContext,
  rows: ReadonlyArray<Record<string, string>>,
  mapping: DataMapping,
  next: () => string,
): Array<PlannedCase & { data: DataSpec }> {
  const cases: Array<PlannedCase & { data: DataSpec }> = [];
  rows.forEach((row, i) => {
    const label = row.case || row.id || `row ${i + 1}`;
    const named = row.api?.trim();
    let op = named
      ? ctx.model.operations.find((o) => o.id === named || `${o.method} ${o.path}` === named)
      : undefined;
    if (!op) {
      const filled = mapping.columns.filter((c) => row[c.column]);
      const score = (o: Operation): number =>
        filled.filter((c) => c.matches.some((m) => m.operation === o.id)).length;
      op = [...ctx.model.operations]
        .filter((o) => o.method !== 'DELETE')
        .sort((a, b) => score(b) - score(a))[0];
    }
    if (!op) return;
    const steps = ancestors(ctx, op).map((resource) => ({
      resource,
      call: withRow(
        ctx,
        ctx.model.operations.find((o) => o.id === resource.create)!,
        row,
        mapping,
      ),
    }));
    const expected = /^\d{3}$/.test(row.expected_status ?? '')
      ? Number(row.expected_status)
      : successStatus(op);
    const id = next();
    const note = row.comment || row.description || '';
    cases.push({
      id,
      kind: 'data',
      operation: op.id,
      api: `${op.method} ${op.path}`,
      scenario: `${mapping.file} ${label}${note ? ` (${note})` : ''}: answers ${expected}`,
      file: 'test_data_driven.py',
      test: `test_${id.replace('-', '').toLowerCase()}_data_${snake(label)}_${snake(op.id)}`,
      expect: String(expected),
      source: `${mapping.file} ${label}`,
      fixtures: [],
      call: withRow(ctx, op, row, mapping),
      expectation: { kind: 'status', status: expected },
      data: { steps, row: label },
    });
  });
  return cases;
}
