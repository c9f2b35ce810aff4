import { badFormat, bodyFields, outOfRange, wrongType } from '../data/negative.js';
import { sample } from '../data/sample.js';
import type { ApiModel, Operation } from '../spec/model.js';
import type { CallSpec, Expectation, PyExpr, TestCase } from './case-types.js';
import { USED_CONFIDENCE, type Edge } from './dependencies.js';
import { snake } from './names.js';
import { successResponse, type Resource } from './resources.js';

/** A case with how to write it: the request and what the answer must be. */
export interface PlannedCase extends TestCase {
  call: CallSpec;
  expectation: Expectation;
  /** A chain over a resource: create (the call), read, its parents read, delete, read again. */
  chain?: ChainSpec;
}

export interface ChainSpec {
  resource: Resource;
  /** Resources the create takes, created by their fixtures. */
  parents: Resource[];
  /** The state case: create this many times, then read the parents. */
  repeat?: number;
}

export interface CaseContext {
  model: ApiModel;
  resources: readonly Resource[];
  edges: readonly Edge[];
  seed: number;
}

/** The number a successful call of the operation answers (201 for a create), or 200. */
export function successStatus(op: Operation): number {
  const s = successResponse(op)?.status ?? '200';
  return /^\d+$/.test(s) ? Number(s) : 200;
}

export function testFileFor(op: Operation): string {
  return `test_${snake(op.tag)}.py`;
}

const py = (expr: string): PyExpr => ({ $py: expr });

/** The bindings an operation's request takes from resources, strongest edge per field. */
export function bindingsOf(ctx: CaseContext, op: Operation): Array<{ edge: Edge; resource: Resource }> {
  return ctx.edges
    .filter((e) => e.to === op.id && e.via && e.confidence >= USED_CONFIDENCE)
    .map((edge) => ({ edge, resource: ctx.resources.find((r) => r.name === edge.resource)! }))
    .filter((b) => b.resource);
}

/** A valid request of the operation, its bound fields taken from `source(resource)` (a fixture by default). */
export function validCall(
  ctx: CaseContext,
  op: Operation,
  source: (r: Resource) => string = (r) => r.fixture,
): { call: CallSpec; fixtures: string[] } {
  const where = (name: string): string => `${op.pointer}/${name}`;
  const pathArgs: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  const fixtures = new Set<string>();
  const bound = bindingsOf(ctx, op);
  for (const p of op.params) {
    if (p.in !== 'path' && !(p.in === 'query' && p.required)) continue;
    const b = bound.find((x) => x.edge.via!.in === p.in && x.edge.via!.name === p.name);
    const value = b
      ? py(`${source(b.resource)}[${JSON.stringify(b.edge.via!.field)}]`)
      : (p.example ?? sample(p.schema, ctx.seed, where(p.name)));
    if (b) fixtures.add(source(b.resource));
    (p.in === 'path' ? pathArgs : query)[p.name] = value;
  }
  let json: unknown;
  if (op.body) {
    json = op.body.example ?? sample(op.body.schema, ctx.seed, where('body'));
    if (json && typeof json === 'object' && !Array.isArray(json)) {
      const body = { ...(json as Record<string, unknown>) };
      for (const b of bound.filter((x) => x.edge.via!.in === 'body')) {
        body[b.edge.via!.name] = py(`${source(b.resource)}[${JSON.stringify(b.edge.via!.field)}]`);
        fixtures.add(source(b.resource));
      }
      json = body;
    }
  }
  return {
    call: { method: op.method, path: op.path, pathArgs, query, ...(op.body ? { json } : {}), auth: true },
    fixtures: [...fixtures],
  };
}

/** Negative cases of one operation: each breaks one thing the document declares. */
function negatives(
  ctx: CaseContext,
  op: Operation,
  base: CallSpec,
): Array<Omit<PlannedCase, 'id' | 'file' | 'test' | 'fixtures' | 'operation' | 'api'>> {
  const out: Array<Omit<PlannedCase, 'id' | 'file' | 'test' | 'fixtures' | 'operation' | 'api'>> = [];
  const clientError: Expectation = { kind: 'client-error' };
  const body =
    base.json && typeof base.json === 'object' && !Array.isArray(base.json)
      ? (base.json as Record<string, unknown>)
      : undefined;
  const fields = op.body ? bodyFields(op.body.schema) : [];
  for (const p of op.params.filter((x) => x.in === 'query' && x.required)) {
    const query = { ...base.query };
    delete query[p.name];
    out.push({
      kind: 'missing-required',
      field: p.name,
      scenario: `without the required query parameter ${p.name}: a 4xx`,
      call: { ...base, query },
      expectation: clientError,
      expect: '4xx',
    });
  }
  if (body)
    for (const f of fields.filter((x) => x.required)) {
      const json = { ...body };
      delete json[f.name];
      out.push({
        kind: 'missing-required',
        field: f.name,
        scenario: `without the required field ${f.name}: a 4xx`,
        call: { ...base, json },
        expectation: clientError,
        expect: '4xx',
      });
    }
  for (const p of op.params.filter((x) => x.in === 'path' || x.in === 'query')) {
    const bad = wrongType(p.schema);
    if (bad === undefined || typeof bad !== 'string') continue;
    const call =
      p.in === 'path'
        ? { ...base, pathArgs: { ...base.pathArgs, [p.name]: bad } }
        : { ...base, query: { ...base.query, [p.name]: bad } };
    out.push({
      kind: 'wrong-type',
      field: p.name,
      breaks: `type ${String(p.schema.type)}`,
      scenario: `${p.in} parameter ${p.name} of the wrong type: a 4xx`,
      call,
      expectation: clientError,
      expect: '4xx',
    });
  }
  if (body)
    for (const f of fields) {
      const bad = wrongType(f.schema);
      if (bad === undefined) continue;
      out.push({
        kind: 'wrong-type',
        field: f.name,
        breaks: `type ${String(f.schema.type)}`,
        scenario: `field ${f.name} of the wrong type: a 4xx`,
        call: { ...base, json: { ...body, [f.name]: bad } },
        expectation: clientError,
        expect: '4xx',
      });
    }
  if (body)
    for (const f of fields) {
      const bad = badFormat(f.schema);
      if (!bad) continue;
      out.push({
        kind: 'bad-format',
        field: f.name,
        breaks: bad.breaks,
        scenario: `field ${f.name} breaking its ${bad.breaks}: a 4xx`,
        call: { ...base, json: { ...body, [f.name]: bad.value } },
        expectation: clientError,
        expect: '4xx',
      });
    }
  if (body)
    for (const f of fields) {
      const bad = outOfRange(f.schema);
      if (!bad) continue;
      out.push({
        kind: 'out-of-range',
        field: f.name,
        breaks: bad.breaks,
        scenario: `field ${f.name} breaking its ${bad.breaks}: a 4xx`,
        call: { ...base, json: { ...body, [f.name]: bad.value } },
        expectation: clientError,
        expect: '4xx',
      });
    }
  if (op.body && /json/i.test(op.body.contentType)) {
    const { json: _j, ...rest } = base;
    out.push({
      kind: 'malformed-body',
      scenario: 'a body that is not JSON: a 4xx',
      call: { ...rest, raw: '{"not": json' },
      expectation: clientError,
      expect: '4xx',
    });
  }
  if (op.secured) {
    const statuses = op.responses.some((r) => r.status === '403') ? [401, 403] : [401];
    out.push({
      kind: 'no-auth',
      scenario: 'without a credential: 401',
      call: { ...base, auth: false },
      expectation: { kind: 'unauthorised', statuses },
      expect: statuses.join('/'),
    });
  }
  return out;
}

/** Interface-mode cases of every operation, in the plan's order: a positive call, then the negatives. */
export function interfaceCases(
  ctx: CaseContext,
  order: readonly string[],
  next: () => string,
): PlannedCase[] {
  const cases: PlannedCase[] = [];
  for (const id of order) {
    const op = ctx.model.operations.find((o) => o.id === id)!;
    const { call, fixtures } = validCall(ctx, op);
    const file = testFileFor(op);
    const api = `${op.method} ${op.path}`;
    const status = successStatus(op);
    const add = (
      c: Omit<PlannedCase, 'id' | 'file' | 'test' | 'fixtures' | 'operation' | 'api'>,
      name: string,
    ): void => {
      const caseId = next();
      cases.push({
        ...c,
        id: caseId,
        operation: op.id,
        api,
        file,
        test: `test_${caseId.replace('-', '').toLowerCase()}_${snake(op.id)}_${name}`,
        fixtures,
      });
    };
    add(
      {
        kind: 'positive',
        scenario: `a valid call answers ${status} and matches the declared schema and content type`,
        call,
        expectation: { kind: 'status', status },
        expect: String(status),
      },
      'positive',
    );
    for (const n of negatives(ctx, op, call))
      add(n, `${snake(n.kind)}${n.field ? `_${snake(n.field)}` : ''}`);
  }
  return cases;
}

/**
 * Stateful chains: for each resource that can be read back, create -> read -> read what it uses
 * -> delete -> read again (gone); and for each resource made from others, create it several
 * times and read its parents back: what it consumes (a stock, a balance) must leave them valid.
 */
export function chainCases(ctx: CaseContext, order: readonly string[], next: () => string): PlannedCase[] {
  const cases: PlannedCase[] = [];
  const byOrder = [...ctx.resources].sort((a, b) => order.indexOf(a.create) - order.indexOf(b.create));
  for (const r of byOrder) {
    if (!r.read) continue;
    const op = ctx.model.operations.find((o) => o.id === r.create)!;
    const { call, fixtures } = validCall(ctx, op);
    const parents = bindingsOf(ctx, op)
      .map((b) => b.resource)
      .filter((p, i, all) => p.name !== r.name && all.findIndex((x) => x.name === p.name) === i);
    const api = `${op.method} ${op.path}`;
    const steps = [
      `create a ${r.name}`,
      'read it back',
      ...parents.filter((p) => p.read).map((p) => `read its ${p.name}`),
      ...(r.remove ? ['delete it', 'read it again: gone'] : []),
    ];
    let id = next();
    cases.push({
      id,
      kind: 'chain',
      operation: op.id,
      api,
      scenario: `chain: ${steps.join(', ')}`,
      file: 'test_chains.py',
      test: `test_${id.replace('-', '').toLowerCase()}_chain_${snake(r.name)}`,
      expect: 'each step as declared',
      fixtures,
      call,
      expectation: { kind: 'declared' },
      chain: { resource: r, parents },
    });
    const readable = parents.filter((p) => p.read);
    if (readable.length === 0) continue;
    id = next();
    cases.push({
      id,
      kind: 'state',
      operation: op.id,
      api,
      scenario: `state: create a ${r.name} 3 times, then its ${readable.map((p) => p.name).join(' and ')} still match their schema`,
      file: 'test_chains.py',
      test: `test_${id.replace('-', '').toLowerCase()}_repeat_${snake(r.name)}_keeps_${readable.map((p) => snake(p.name)).join('_')}_valid`,
      expect: 'declared statuses; parents valid',
      fixtures,
      call,
      expectation: { kind: 'declared' },
      chain: { resource: r, parents: readable, repeat: 3 },
    });
  }
  return cases;
}
