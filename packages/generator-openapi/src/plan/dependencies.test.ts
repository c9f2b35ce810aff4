import { describe, expect, it } from 'vitest';
import type { ApiModel, Operation } from '../spec/model.js';
import { findEdges, orderOperations } from './dependencies.js';
import { findResources } from './resources.js';

const item = (props: Record<string, unknown>): Operation['responses'][number] => ({
  status: '201',
  contentType: 'application/json',
  schema: { type: 'object', properties: props },
  links: [],
});

function op(id: string, method: string, path: string, extra: Partial<Operation> = {}): Operation {
  return {
    id,
    method,
    path,
    tag: 't',
    summary: '',
    params: [],
    responses: [],
    secured: false,
    depends: [],
    pointer: `/paths/${path}`,
    ...extra,
  };
}

const body = (props: Record<string, unknown>): Operation['body'] => ({
  contentType: 'application/json',
  required: true,
  schema: { type: 'object', properties: props },
});

const model: ApiModel = {
  title: 'T',
  version: '1',
  specVersion: '3.0',
  servers: [],
  operations: [
    op('createIssue', 'POST', '/issues', {
      body: body({ title: {}, creatorId: {}, projId: {} }),
      responses: [item({ id: {} })],
    }),
    op('createAccount', 'POST', '/accounts', {
      body: body({ name: {} }),
      responses: [item({ id: {}, handle: {} })],
    }),
    op('createUser', 'POST', '/users', { body: body({ name: {} }), responses: [item({ id: {} })] }),
    op('createProject', 'POST', '/projects', { body: body({ name: {} }), responses: [item({ id: {} })] }),
    op('getIssue', 'GET', '/issues/{issueId}', {
      params: [{ name: 'issueId', in: 'path', required: true, schema: {} }],
    }),
    op('findByHandle', 'GET', '/lookup', {
      params: [{ name: 'handle', in: 'query', required: true, schema: {} }],
      depends: ['createProject'],
    }),
  ],
};

describe('the dependency graph', () => {
  const resources = findResources(model);
  const edges = findEdges(model, resources);
  const edge = (to: string, name?: string): unknown =>
    edges.find((e) => e.to === to && (!name || e.via?.name === name));

  it('binds each field by its strongest evidence, with that evidence`s confidence', () => {
    expect(edge('getIssue')).toMatchObject({ from: 'createIssue', kind: 'path-parameter', confidence: 0.9 });
    // a user in another role
    expect(edge('createIssue', 'creatorId')).toMatchObject({
      from: 'createUser',
      kind: 'name',
      via: { in: 'body', field: 'id' },
    });
    // a field of a created item
    expect(edge('findByHandle', 'handle')).toMatchObject({
      from: 'createAccount',
      kind: 'field-match',
      confidence: 0.5,
    });
    // a resemblance only: shown, not used
    expect(edge('createIssue', 'projId')).toMatchObject({
      from: 'createProject',
      kind: 'similarity',
      confidence: 0.3,
    });
    // x-depends with no field that names it: an edge for the order alone
    expect(edges.find((e) => e.to === 'findByHandle' && e.kind === 'explicit')).toMatchObject({
      from: 'createProject',
      confidence: 1,
    });
  });

  it('orders a resource after those it is made from', () => {
    const order = orderOperations(model, resources, edges);
    expect(order.indexOf('createUser')).toBeLessThan(order.indexOf('createIssue'));
    expect(order.indexOf('createIssue')).toBeLessThan(order.indexOf('getIssue'));
  });
});
