/**
 * `@suture/generator-openapi`: an OpenAPI 2.0/3.0/3.1 document to a pytest suite that suture
 * gates: script errors healed in the tests, product bugs reported in bug_report.json, and a load
 * test of what passed. The judge fixer is on its own subpath, `@suture/generator-openapi/judge`.
 */
export { default, GeneratorOptionsSchema, planFiles, type GeneratorOptions } from './generator.js';
export { generateApi, type GenerateApiOptions, type GenerateApiResult } from './pipeline/generate-api.js';
export { gateSuite, type GateRun } from './pipeline/run-gate.js';
export { loadSpec, type LoadedSpec } from './spec/load.js';
export { buildModel, type ApiModel, type Operation } from './spec/model.js';
export { buildPlan, planJson, type Plan } from './plan/plan.js';
export { CONFIDENCE, type Edge, type EdgeKind } from './plan/dependencies.js';
export type { TestCase, CaseKind } from './plan/case-types.js';
export type { BugEntry, BugReportFile } from './report/bug-report.js';
export type { CaseTotals, Mode } from './report/testcases-md.js';
