import { objectShape, primaryType, type JsonSchema } from '../spec/json-schema.js';
import type { ApiModel, Operation } from '../spec/model.js';
import { flat, singular, snake } from './names.js';

/** Something the API lets a test create, read and delete: what chains and fixtures are built on. */
export interface Resource {
  /** Singular name: `user`. */
  name: string;
  /** `/users`. */
  collection: string;
  create: string;
  /** GET, DELETE of one item (`/users/{userId}`) when the document has them. */
  read?: string;
  remove?: string;
  /** Path parameter of one item: `userId`. */
  itemParam?: string;
  /** Field of the created item that identifies it: `id`. */
  idField: string;
  /** Fields of the created item. */
  fields: string[];
  /** The Python fixture that creates it. */
  fixture: string;
}

const RESERVED_FIXTURES = new Set(['api', 'request', 'cleanup', 'tmp_path', 'monkeypatch', 'capsys', 'case']);

export function successResponse(op: Operation): Operation['responses'][number] | undefined {
  return (
    op.responses.find((r) => /^2\d\d$/.test(r.status)) ??
    op.responses.find((r) => r.status === '2XX') ??
    op.responses.find((r) => r.status === 'default')
  );
}

function created(op: Operation): JsonSchema | undefined {
  const schema = successResponse(op)?.schema;
  return schema && primaryType(schema) === 'object' ? schema : undefined;
}

/** Resources: a POST on a collection that answers an object with an id, and its item paths. */
export function findResources(model: ApiModel): Resource[] {
  const resources: Resource[] = [];
  for (const op of model.operations) {
    if (op.method !== 'POST' || /\}$/.test(op.path)) continue;
    const schema = created(op);
    if (!schema) continue;
    const fields = Object.keys(objectShape(schema).properties);
    const last = op.path.split('/').filter(Boolean).at(-1);
    if (!last) continue;
    const name = singular(last);
    const idField = fields.find((f) => f === 'id') ?? fields.find((f) => flat(f) === `${flat(name)}id`);
    if (!idField) continue;
    const itemPath = new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&')}/\\{([^}]+)\\}$`);
    const item = model.operations.filter((o) => itemPath.test(o.path));
    const read = item.find((o) => o.method === 'GET');
    const remove = item.find((o) => o.method === 'DELETE');
    const itemParam = item[0] ? itemPath.exec(item[0].path)?.[1] : undefined;
    const base = snake(name);
    resources.push({
      name,
      collection: op.path,
      create: op.id,
      ...(read ? { read: read.id } : {}),
      ...(remove ? { remove: remove.id } : {}),
      ...(itemParam ? { itemParam } : {}),
      idField,
      fields,
      fixture: RESERVED_FIXTURES.has(base) ? `${base}_resource` : base,
    });
  }
  return resources;
}
