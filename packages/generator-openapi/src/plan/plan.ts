import type { ApiModel } from '../spec/model.js';
import { chainCases, interfaceCases, type CaseContext, type PlannedCase } from './cases.js';
import { findEdges, orderOperations, type Edge } from './dependencies.js';
import { findResources, type Resource } from './resources.js';

export interface Plan {
  model: ApiModel;
  resources: Resource[];
  edges: Edge[];
  /** Operation ids in the order the dependencies imply. */
  order: string[];
  cases: PlannedCase[];
  seed: number;
}

/** Case ids in order: TC-001, TC-002, ... */
export function caseCounter(start = 1): () => string {
  let n = start;
  return () => `TC-${String(n++).padStart(3, '0')}`;
}

/** Endpoints, the dependency graph and its order, and the interface-mode cases. */
export function buildPlan(model: ApiModel, seed: number): Plan {
  const resources = findResources(model);
  const edges = findEdges(model, resources);
  const order = orderOperations(model, resources, edges);
  const ctx: CaseContext = { model, resources, edges, seed };
  const next = caseCounter();
  const cases = [...interfaceCases(ctx, order, next), ...chainCases(ctx, order, next)];
  return { model, resources, edges, order, cases, seed };
}

/** plan.json: what the generator saw and decided, for people and for later runs. */
export function planJson(plan: Plan, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    api: { title: plan.model.title, version: plan.model.version, openapi: plan.model.specVersion },
    seed: plan.seed,
    ...extra,
    operations: plan.model.operations.map((o) => ({
      id: o.id,
      method: o.method,
      path: o.path,
      tag: o.tag,
      secured: o.secured,
      ...(o.depends.length ? { 'x-depends': o.depends } : {}),
    })),
    resources: plan.resources.map((r) => ({
      name: r.name,
      create: r.create,
      ...(r.read ? { read: r.read } : {}),
      ...(r.remove ? { delete: r.remove } : {}),
      idField: r.idField,
      fixture: r.fixture,
    })),
    dependencies: plan.edges.map((e) => ({
      from: e.from,
      to: e.to,
      resource: e.resource,
      ...(e.via ? { via: `${e.via.in}.${e.via.name} <- ${e.resource}.${e.via.field}` } : {}),
      kind: e.kind,
      confidence: e.confidence,
      reason: e.reason,
    })),
    order: plan.order,
    cases: plan.cases.map((c) => ({
      id: c.id,
      kind: c.kind,
      operation: c.operation,
      api: c.api,
      scenario: c.scenario,
      expect: c.expect,
      file: c.file,
      test: `${c.file}::${c.test}`,
    })),
  };
}
