import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support.js';
import { loadSpec } from './load.js';
import { buildModel } from './model.js';

let dir: { dir: string; dispose(): Promise<void> };
const file = async (name: string, text: string): Promise<string> => {
  await mkdir(join(dir.dir, name, '..'), { recursive: true });
  await writeFile(join(dir.dir, name), text);
  return name;
};

beforeAll(async () => {
  dir = await tempDir('suture-spec-');
});
afterAll(async () => {
  await dir.dispose();
});

const swagger2 = JSON.stringify({
  swagger: '2.0',
  info: { title: 'Pets', version: '1' },
  host: 'pets.test',
  basePath: '/v1',
  schemes: ['https'],
  securityDefinitions: { key: { type: 'apiKey', name: 'X-Key', in: 'header' } },
  paths: {
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        produces: ['application/json'],
        security: [{ key: [] }],
        parameters: [{ name: 'petId', in: 'path', required: true, type: 'integer', minimum: 1 }],
        responses: { 200: { description: 'ok', schema: { $ref: '#/definitions/Pet' } } },
      },
    },
    '/pets': {
      post: {
        parameters: [{ name: 'pet', in: 'body', required: true, schema: { $ref: '#/definitions/Pet' } }],
        responses: { 201: { description: 'made', schema: { $ref: '#/definitions/Pet' } } },
      },
    },
  },
  definitions: {
    Pet: {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'integer' }, tag: { type: 'string', 'x-nullable': true } },
    },
  },
});

describe('loadSpec', () => {
  it('reads Swagger 2.0 (JSON): body parameters, produces, apiKey security, the server from host and basePath', async () => {
    const model = buildModel(await loadSpec(await file('pets.json', swagger2), dir.dir));
    expect(model.specVersion).toBe('2.0');
    expect(model.servers).toEqual(['https://pets.test/v1']);
    expect(model.auth).toEqual({ kind: 'apiKey', name: 'X-Key', in: 'header' });
    const get = model.operations.find((o) => o.id === 'getPet')!;
    expect(get).toMatchObject({
      method: 'GET',
      secured: true,
      params: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
    });
    expect(get.responses[0]).toMatchObject({
      status: '200',
      contentType: 'application/json',
      schema: { required: ['id'] },
    });
    const post = model.operations.find((o) => o.method === 'POST')!;
    expect(post.id).toBe('post_pets');
    expect(post.body?.schema).toMatchObject({ properties: { tag: { type: ['string', 'null'] } } });
  });

  it('reads OpenAPI 3.1 (YAML) with type arrays and examples', async () => {
    const name = await file(
      'v31.yaml',
      [
        'openapi: 3.1.0',
        'info: {title: T, version: "1"}',
        'paths:',
        '  /things:',
        '    post:',
        '      operationId: makeThing',
        '      requestBody:',
        '        content:',
        '          application/json:',
        '            schema: {type: object, required: [n], properties: {n: {type: [integer, "null"], examples: [7]}}}',
        '      responses:',
        "        '201': {description: made}",
      ].join('\n'),
    );
    const model = buildModel(await loadSpec(name, dir.dir));
    expect(model.specVersion).toBe('3.1');
    expect(model.operations[0]!.body?.schema).toMatchObject({
      properties: { n: { type: ['integer', 'null'] } },
    });
  });

  it('follows $refs across files (the example service keeps its schemas in a second file)', async () => {
    const example = new URL('../../../../examples/api-service/', import.meta.url).pathname;
    const model = buildModel(await loadSpec('openapi.yaml', example));
    const create = model.operations.find((o) => o.id === 'createOrder')!;
    expect(create.body?.schema).toMatchObject({ required: ['userId', 'productId', 'quantity'] });
    expect(create.depends).toEqual(['createUser', 'createProduct']);
  });

  it('names the file, the line and the JSON pointer of a document that breaks the OpenAPI schema', async () => {
    const name = await file(
      'bad.yaml',
      [
        'openapi: 3.0.3',
        'info: {title: T, version: "1"}',
        'paths:',
        '  /a:',
        '    get:',
        '      responses:',
        "        '200':",
        '          descripton: ok',
      ].join('\n'),
    );
    await expect(loadSpec(name, dir.dir)).rejects.toThrow(
      /^bad\.yaml:7 \(at \/paths\/~1a\/get\/responses\/200\): invalid OpenAPI 3\.0 document: must have required property 'description'; unknown key "descripton"/,
    );
  });

  it('names the line of a YAML syntax error, a $ref that resolves nowhere, and a file that is no OpenAPI document', async () => {
    await expect(
      loadSpec(await file('syntax.yaml', 'openapi: 3.0.3\ninfo: {title: T\npaths: {}\n'), dir.dir),
    ).rejects.toThrow(/^syntax\.yaml:\d+: not valid JSON or YAML/);
    const ref = await file(
      'ref.yaml',
      [
        'openapi: 3.0.3',
        'info: {title: T, version: "1"}',
        'paths:',
        '  /a:',
        '    get:',
        '      responses:',
        "        '200':",
        '          description: ok',
        '          content:',
        '            application/json:',
        "              schema: {$ref: './missing.yaml#/Thing'}",
      ].join('\n'),
    );
    await expect(loadSpec(ref, dir.dir)).rejects.toThrow(
      /^ref\.yaml:11: a \$ref cannot be resolved \("\.\/missing\.yaml#\/Thing"\)/,
    );
    await expect(loadSpec(await file('other.yaml', 'name: not an api\n'), dir.dir)).rejects.toThrow(
      /^other\.yaml:1 \(at \/\): not an OpenAPI document/,
    );
    await expect(loadSpec('nowhere.yaml', dir.dir)).rejects.toThrow(
      /^nowhere\.yaml: cannot read the OpenAPI document \(ENOENT\); check the --spec path/,
    );
  });
});
