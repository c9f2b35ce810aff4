import type { LoadedSpec } from './load.js';
import { toJsonSchema, type JsonSchema } from './json-schema.js';
import { toPointer } from './locate.js';

export const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;

export interface ParamSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export interface BodySpec {
  contentType: string;
  required: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export interface LinkSpec {
  operationId: string;
  /** Parameter name -> runtime expression, e.g. `userId` -> `$response.body#/id`. */
  parameters: Record<string, string>;
}

export interface ResponseSpec {
  /** `201`, `4XX` or `default`. */
  status: string;
  contentType?: string;
  schema?: JsonSchema;
  links: LinkSpec[];
}

export interface Operation {
  /** operationId, or `<method>_<path>` made into a name when the document gives none. */
  id: string;
  method: string;
  path: string;
  tag: string;
  summary: string;
  params: ParamSpec[];
  body?: BodySpec;
  responses: ResponseSpec[];
  /** A credential is required (a security requirement without an empty alternative). */
  secured: boolean;
  /** `x-depends`: operationIds this one needs to have run first. */
  depends: string[];
  /** JSON pointer of the operation in the document. */
  pointer: string;
}

export interface AuthSpec {
  kind: 'bearer' | 'basic' | 'apiKey';
  /** Header or query parameter name of an API key. */
  name?: string;
  in?: 'header' | 'query' | 'cookie';
}

export interface ApiModel {
  title: string;
  version: string;
  specVersion: LoadedSpec['version'];
  servers: string[];
  auth?: AuthSpec;
  operations: Operation[];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function derivedId(method: string, path: string): string {
  const words = path
    .replace(/[{}]/g, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [method, ...words].join('_');
}

/** Swagger 2.0 puts a parameter's schema keywords on the parameter itself. */
function paramSchema(p: Obj, swagger: boolean): JsonSchema {
  if (!swagger || p.schema) return toJsonSchema(p.schema);
  const {
    name: _n,
    in: _i,
    required: _r,
    description: _d,
    collectionFormat: _c,
    allowEmptyValue: _a,
    ...rest
  } = p;
  return toJsonSchema(rest);
}

function pickMedia(content: Obj): [string, Obj] | undefined {
  const entries = Object.entries(content);
  return (entries.find(([t]) => /json/i.test(t)) ?? entries[0]) as [string, Obj] | undefined;
}

function authOf(doc: Obj, swagger: boolean): AuthSpec | undefined {
  const schemes = obj(swagger ? doc.securityDefinitions : obj(doc.components).securitySchemes);
  for (const s of Object.values(schemes).map(obj)) {
    if (s.type === 'apiKey')
      return {
        kind: 'apiKey',
        name: String(s.name ?? 'X-API-Key'),
        in: (s.in as AuthSpec['in']) ?? 'header',
      };
    if (s.type === 'http' && String(s.scheme).toLowerCase() === 'basic') return { kind: 'basic' };
    if (s.type === 'basic') return { kind: 'basic' };
    return { kind: 'bearer' };
  }
  return undefined;
}

function responsesOf(op: Obj, swagger: boolean, produces: string[]): ResponseSpec[] {
  return Object.entries(obj(op.responses))
    .filter(([status]) => !status.startsWith('x-'))
    .map(([status, value]) => {
      const r = obj(value);
      const links = Object.values(obj(r.links)).map((l) => ({
        operationId: String(obj(l).operationId ?? ''),
        parameters: Object.fromEntries(
          Object.entries(obj(obj(l).parameters)).map(([k, v]) => [k, String(v)]),
        ),
      }));
      if (swagger) {
        return {
          status,
          ...(r.schema
            ? { schema: toJsonSchema(r.schema), contentType: produces[0] ?? 'application/json' }
            : {}),
          links: [],
        };
      }
      const media = pickMedia(obj(r.content));
      return {
        status,
        ...(media ? { contentType: media[0] } : {}),
        ...(media && media[1].schema ? { schema: toJsonSchema(media[1].schema) } : {}),
        links: links.filter((l) => l.operationId),
      };
    });
}

/** The operations of a resolved document in one shape, whatever its version. */
export function buildModel(spec: LoadedSpec): ApiModel {
  const doc = spec.doc;
  const swagger = spec.version === '2.0';
  const info = obj(doc.info);
  const servers = swagger
    ? doc.host
      ? [`${list(doc.schemes)[0] ?? 'http'}://${String(doc.host)}${String(doc.basePath ?? '')}`]
      : []
    : list(doc.servers)
        .map((s) => String(obj(s).url ?? ''))
        .filter(Boolean);
  const operations: Operation[] = [];
  const globalSecurity = doc.security;
  for (const [path, item] of Object.entries(obj(doc.paths))) {
    const pathItem = obj(item);
    for (const method of METHODS) {
      const op = obj(pathItem[method]);
      if (!pathItem[method]) continue;
      const merged = new Map<string, Obj>();
      for (const p of [...list(pathItem.parameters), ...list(op.parameters)].map(obj))
        merged.set(`${String(p.in)}:${String(p.name)}`, p);
      const params: ParamSpec[] = [];
      let body: BodySpec | undefined;
      const consumes = list(op.consumes ?? doc.consumes).map(String);
      for (const p of merged.values()) {
        if (p.in === 'body') {
          body = {
            contentType: consumes.find((c) => /json/i.test(c)) ?? consumes[0] ?? 'application/json',
            required: p.required === true,
            schema: toJsonSchema(p.schema),
            ...(obj(p.schema).example !== undefined ? { example: obj(p.schema).example } : {}),
          };
          continue;
        }
        if (p.in === 'formData') continue;
        params.push({
          name: String(p.name),
          in: p.in as ParamSpec['in'],
          required: p.in === 'path' || p.required === true,
          schema: paramSchema(p, swagger),
          ...(p.example !== undefined ? { example: p.example } : {}),
        });
      }
      if (!swagger && op.requestBody) {
        const rb = obj(op.requestBody);
        const media = pickMedia(obj(rb.content));
        if (media)
          body = {
            contentType: media[0],
            required: rb.required === true,
            schema: toJsonSchema(media[1].schema),
            ...(media[1].example !== undefined ? { example: media[1].example } : {}),
            ...(media[1].example === undefined && Object.keys(obj(media[1].examples)).length > 0
              ? { example: obj(Object.values(obj(media[1].examples))[0]).value }
              : {}),
          };
      }
      const security = list(op.security ?? globalSecurity);
      const produces = list(op.produces ?? doc.produces).map(String);
      operations.push({
        id: typeof op.operationId === 'string' && op.operationId ? op.operationId : derivedId(method, path),
        method: method.toUpperCase(),
        path,
        tag: String(list(op.tags)[0] ?? path.split('/').filter(Boolean)[0] ?? 'root'),
        summary: String(op.summary ?? op.description ?? '').split('\n')[0]!,
        params,
        ...(body ? { body } : {}),
        responses: responsesOf(op, swagger, produces),
        secured: security.length > 0 && !security.some((s) => Object.keys(obj(s)).length === 0),
        depends: list(op['x-depends']).map(String),
        pointer: toPointer(['paths', path, method]),
      });
    }
  }
  const auth = authOf(doc, swagger);
  return {
    title: String(info.title ?? 'API'),
    version: String(info.version ?? ''),
    specVersion: spec.version,
    servers,
    ...(auth ? { auth } : {}),
    operations,
  };
}
