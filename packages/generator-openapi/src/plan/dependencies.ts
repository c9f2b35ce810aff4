import { objectShape } from '../spec/json-schema.js';
import type { ApiModel, Operation } from '../spec/model.js';
import { flat, idStem, similarity, USER_ROLES } from './names.js';
import type { Resource } from './resources.js';

export type EdgeKind = 'explicit' | 'link' | 'path-parameter' | 'name' | 'field-match' | 'similarity';

/** How sure an edge is, by what it rests on: a declaration beats a name, a name beats a resemblance. */
export const CONFIDENCE: Readonly<Record<EdgeKind, number>> = {
  explicit: 1,
  link: 0.95,
  'path-parameter': 0.9,
  name: 0.7,
  'field-match': 0.5,
  similarity: 0.3,
};

/** Edges at least this sure are used to fill a request; weaker ones are shown in the plan only. */
export const USED_CONFIDENCE = 0.5;

/** Where a consumer puts the producer's value. */
export interface Binding {
  in: 'path' | 'query' | 'header' | 'body';
  name: string;
  /** The field of the created item it takes: `id`. */
  field: string;
}

export interface Edge {
  /** The resource that must exist first. */
  resource: string;
  /** Its creating operation. */
  from: string;
  /** The operation that uses it. */
  to: string;
  via?: Binding;
  kind: EdgeKind;
  confidence: number;
  reason: string;
}

interface Field {
  in: Binding['in'];
  name: string;
}

function fieldsOf(op: Operation): Field[] {
  const fields: Field[] = op.params
    .filter((p) => p.in !== 'cookie')
    .map((p) => ({ in: p.in as Binding['in'], name: p.name }));
  if (op.body)
    for (const name of Object.keys(objectShape(op.body.schema).properties)) fields.push({ in: 'body', name });
  return fields;
}

const GENERIC_FIELDS = new Set([
  'name',
  'title',
  'description',
  'status',
  'email',
  'type',
  'createdat',
  'updatedat',
  'id',
]);

/** The strongest reason a field of `op` takes the id (or a field) of `r`, if any. */
function match(
  op: Operation,
  field: Field,
  r: Resource,
  model: ApiModel,
): Omit<Edge, 'resource' | 'from' | 'to'> | undefined {
  const stem = idStem(field.name);
  const creator = model.operations.find((o) => o.id === r.create);
  const link = creator?.responses
    .flatMap((res) => res.links)
    .find((l) => l.operationId === op.id && l.parameters[field.name] !== undefined);
  if (link) {
    const pointer = /#\/(.+)$/.exec(link.parameters[field.name]!)?.[1] ?? r.idField;
    return {
      via: { in: field.in, name: field.name, field: pointer.split('/')[0]! },
      kind: 'link',
      confidence: CONFIDENCE.link,
      reason: `OpenAPI link from ${r.create}: ${field.name} = ${link.parameters[field.name]}`,
    };
  }
  if (field.in === 'path' && op.path.startsWith(`${r.collection}/{${field.name}}`))
    return {
      via: { in: 'path', name: field.name, field: r.idField },
      kind: 'path-parameter',
      confidence: CONFIDENCE['path-parameter'],
      reason: `path ${op.path} names one item of ${r.collection}`,
    };
  if (stem && stem === flat(r.name))
    return {
      via: { in: field.in, name: field.name, field: r.idField },
      kind: 'name',
      confidence: CONFIDENCE.name,
      reason: `${field.in} field ${field.name} names a ${r.name}`,
    };
  if (stem && USER_ROLES.has(stem) && flat(r.name) === 'user')
    return {
      via: { in: field.in, name: field.name, field: r.idField },
      kind: 'name',
      confidence: CONFIDENCE.name - 0.1,
      reason: `${field.in} field ${field.name} names a user in the role "${stem}"`,
    };
  if (
    !stem &&
    !GENERIC_FIELDS.has(flat(field.name)) &&
    r.fields.some((f) => f === field.name) &&
    op.id !== r.create
  )
    return {
      via: { in: field.in, name: field.name, field: field.name },
      kind: 'field-match',
      confidence: CONFIDENCE['field-match'],
      reason: `${field.name} is a field of the ${r.name} that ${r.create} answers`,
    };
  if (stem && similarity(stem, r.name) >= 0.5)
    return {
      via: { in: field.in, name: field.name, field: r.idField },
      kind: 'similarity',
      confidence: CONFIDENCE.similarity,
      reason: `${field.name} resembles ${r.name}Id (similarity ${similarity(stem, r.name).toFixed(2)})`,
    };
  return undefined;
}

/**
 * The dependency graph: for every operation, the resources it needs, each field bound to the
 * strongest evidence (x-depends, an OpenAPI link, a path parameter, a field name, a field of the
 * created item, a resemblance) with that evidence's confidence.
 */
export function findEdges(model: ApiModel, resources: readonly Resource[]): Edge[] {
  const edges: Edge[] = [];
  for (const op of model.operations) {
    for (const field of fieldsOf(op)) {
      let best: Edge | undefined;
      for (const r of resources) {
        if (r.create === op.id && field.in === 'body') continue;
        const m = match(op, field, r, model);
        if (m && (!best || m.confidence > best.confidence))
          best = { resource: r.name, from: r.create, to: op.id, ...m };
      }
      if (best) edges.push(best);
    }
    for (const wanted of op.depends) {
      const r = resources.find((x) => x.create === wanted);
      const bound = edges.find((e) => e.to === op.id && e.from === wanted);
      if (bound) {
        bound.kind = 'explicit';
        bound.confidence = CONFIDENCE.explicit;
        bound.reason = `x-depends names ${wanted}; ${bound.reason}`;
      } else if (r)
        edges.push({
          resource: r.name,
          from: wanted,
          to: op.id,
          kind: 'explicit',
          confidence: CONFIDENCE.explicit,
          reason: `x-depends names ${wanted}`,
        });
    }
  }
  return edges;
}

/**
 * The order the edges imply: resources before what uses them (Kahn's algorithm; a cycle is
 * broken at its weakest edge), then per resource create, read, the rest, and deletes last.
 */
export function orderOperations(
  model: ApiModel,
  resources: readonly Resource[],
  edges: readonly Edge[],
): string[] {
  const names = resources.map((r) => r.name);
  const needs = new Map(names.map((n) => [n, new Set<string>()]));
  for (const e of edges) {
    if (e.confidence < USED_CONFIDENCE) continue;
    const consumer = resources.find((r) => r.create === e.to);
    if (consumer && consumer.name !== e.resource) needs.get(consumer.name)!.add(e.resource);
  }
  const ordered: string[] = [];
  const left = new Set(names);
  while (left.size > 0) {
    const ready = [...left].filter((n) => [...needs.get(n)!].every((d) => !left.has(d)));
    const next = ready[0] ?? [...left][0]!;
    ordered.push(next);
    left.delete(next);
  }
  const rank = (op: Operation): number => {
    const r = resources.find((x) => op.path === x.collection || op.path.startsWith(`${x.collection}/`));
    const base = r ? ordered.indexOf(r.name) : -1;
    const verb = op.method === 'POST' ? 0 : op.method === 'GET' ? 1 : op.method === 'DELETE' ? 3 : 2;
    return verb === 3 ? 1000 - base : (base + 1) * 10 + verb;
  };
  return [...model.operations].sort((a, b) => rank(a) - rank(b)).map((o) => o.id);
}
