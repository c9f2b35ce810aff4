import type { CaseContext } from '../plan/cases.js';
import { validCall } from '../plan/cases.js';
import type { CallSpec } from '../plan/case-types.js';
import type { Resource } from '../plan/resources.js';

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** A value of a planned request with its bindings filled from created items (`user["id"]` -> 12). */
function fill(value: unknown, items: ReadonlyMap<string, Record<string, unknown>>): unknown {
  if (value && typeof value === 'object' && '$py' in value) {
    const m = /^(\w+)\["([^"]+)"\]$/.exec(String((value as { $py: string }).$py));
    return m ? items.get(m[1]!)?.[m[2]!] : undefined;
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, items));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, items)]));
  return value;
}

/** The HTTP request of a planned call, its bindings filled. */
export function toRequest(
  call: CallSpec,
  baseUrl: string,
  credential: Record<string, string>,
  items: ReadonlyMap<string, Record<string, unknown>>,
): HttpRequest {
  const path = call.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(fill(call.pathArgs[name], items))),
  );
  const query = new URLSearchParams(
    Object.entries(call.query).map(([k, v]): [string, string] => [k, String(fill(v, items))]),
  ).toString();
  const body = 'json' in call ? JSON.stringify(fill(call.json, items)) : undefined;
  return {
    method: call.method,
    url: `${baseUrl.replace(/\/$/, '')}${path}${query ? `?${query}` : ''}`,
    headers: {
      ...(call.auth ? credential : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body } : {}),
  };
}

/**
 * Creates, once, the items the loaded requests need (a user and a product before an order), in
 * the order the dependencies give, with the same requests as the suite's fixtures.
 */
export async function createItems(
  ctx: CaseContext,
  needed: readonly Resource[],
  baseUrl: string,
  credential: Record<string, string>,
): Promise<Map<string, Record<string, unknown>>> {
  const items = new Map<string, Record<string, unknown>>();
  const make = async (r: Resource, seen: Set<string>): Promise<void> => {
    if (items.has(r.fixture) || seen.has(r.fixture)) return;
    seen.add(r.fixture);
    const op = ctx.model.operations.find((o) => o.id === r.create)!;
    const { call, fixtures } = validCall(ctx, op);
    for (const f of fixtures) {
      const parent = ctx.resources.find((x) => x.fixture === f);
      if (parent) await make(parent, seen);
    }
    const req = toRequest(call, baseUrl, credential, items);
    const res = await fetch(req.url, {
      method: req.method,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
    });
    if (res.status >= 300)
      throw new Error(
        `the load test could not create a ${r.name}: ${req.method} ${req.url} answered ${res.status}`,
      );
    items.set(r.fixture, (await res.json()) as Record<string, unknown>);
  };
  for (const r of needed) await make(r, new Set());
  return items;
}
