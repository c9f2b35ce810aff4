import { posix } from 'node:path';
import {
  API_VERSION,
  ConfigError,
  defineGenerator,
  z,
  type GeneratedFile,
  type Generator as TestGenerator,
} from '@suture/core';
import { buildContract } from './emit/contract.js';
import { CONFTEST_BASE } from './emit/conftest-base.js';
import { resourceFixtures } from './emit/fixtures.js';
import { testFiles } from './emit/tests.js';
import { buildPlan, planJson, type Plan } from './plan/plan.js';
import { loadSpec } from './spec/load.js';
import { buildModel } from './spec/model.js';

export const GeneratorOptionsSchema = z
  .object({
    /** Where the service answers; the tests read API_BASE_URL first. */
    baseUrl: z.string().url(),
    /** Seed of the generated data: the same seed writes the same tests. */
    seed: z.number().int().nonnegative().default(1),
    /** Environment variable the tests read the credential from. */
    authEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .default('API_TOKEN'),
    /** Longest answer a test accepts, in seconds. */
    responseTimeLimitS: z.number().positive().default(10),
  })
  .strict();
export type GeneratorOptions = z.input<typeof GeneratorOptionsSchema>;

const PYTEST_INI = `[pytest]
markers =
    case(id): the case id (TC-###) of the test in testcases.md
addopts = -p no:cacheprovider
`;

const GITIGNORE = `.exchanges/
.suture/
__pycache__/
`;

const REQUIREMENTS = `pytest
requests
jsonschema
`;

/** The files of a plan: conftest with its fixtures, a test file per tag, the contract and the plan. */
export function planFiles(plan: Plan, options: z.output<typeof GeneratorOptionsSchema>): GeneratedFile[] {
  const ctx = { model: plan.model, resources: plan.resources, edges: plan.edges, seed: plan.seed };
  const contract = buildContract(plan.model, plan.cases, {
    baseUrl: options.baseUrl,
    authEnv: options.authEnv,
    responseTimeLimitS: options.responseTimeLimitS,
  });
  const fixtures = resourceFixtures(ctx);
  return [
    { file: 'conftest.py', content: `${CONFTEST_BASE}${fixtures ? `\n\n${fixtures}\n` : ''}` },
    { file: 'pytest.ini', content: PYTEST_INI },
    { file: 'requirements.txt', content: REQUIREMENTS },
    { file: '.gitignore', content: GITIGNORE },
    { file: 'api_contract.json', content: `${JSON.stringify(contract, null, 2)}\n` },
    { file: 'plan.json', content: `${JSON.stringify(planJson(plan), null, 2)}\n` },
    ...[...testFiles(ctx, plan.cases)].map(([file, content]) => ({ file, content })),
  ];
}

/**
 * The OpenAPI generator: `inputs[0]` is the document (project-relative); it answers a pytest
 * project for interface mode (conftest, a test file per tag, chains, api_contract.json,
 * plan.json) and the plan, test by test. It writes nothing itself.
 */
export default function openapi(options: GeneratorOptions): TestGenerator {
  const parsed = GeneratorOptionsSchema.safeParse(options);
  if (!parsed.success)
    throw new ConfigError(
      `@suture/generator-openapi: invalid options: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(options)'}: ${i.message}`).join('; ')}`,
    );
  const settled = parsed.data;
  return defineGenerator({
    name: '@suture/generator-openapi',
    apiVersion: API_VERSION,
    language: 'python',
    async generate(request) {
      const spec = request.inputs[0];
      if (!spec)
        throw new ConfigError(
          '@suture/generator-openapi: no OpenAPI document among the inputs; pass it with --spec',
        );
      const loaded = await loadSpec(spec, request.project.root);
      const plan = buildPlan(buildModel(loaded), settled.seed);
      const files = planFiles(plan, settled).filter((f) => !request.existingTests.includes(f.file));
      return {
        files,
        plan: {
          summary: `${plan.cases.length} cases for ${plan.model.operations.length} operations of ${plan.model.title} (OpenAPI ${plan.model.specVersion})`,
          tests: plan.cases.map((c) => ({
            file: c.file,
            test: posix.join(c.file) + `::${c.test}`,
            covers: `${c.id} ${c.api}: ${c.scenario}`,
          })),
        },
        usage: { calls: 0, costUsd: 0 },
      };
    },
  });
}
