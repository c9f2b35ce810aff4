import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApi, type GenerateApiResult } from '../../src/index.js';
import { startScriptedOpenAI, type ScriptedOpenAI } from '../scripted-openai.js';
import {
  captured,
  EXAMPLE,
  requirePythonModules,
  startExampleService,
  tempDir,
  TOKEN,
  type Service,
} from '../support.js';

// Business mode on the example's cassette (examples/api-service/cassette): the OpenAI fixer
// replays the recorded answers with no key and no request to any server.
// SUTURE_RECORD_CASSETTES=1 records them again against a local server that answers as a model would.
const RECORD = process.env.SUTURE_RECORD_CASSETTES === '1';
const CASSETTE = join(EXAMPLE, 'cassette');

describe('business mode: scenarios from the rules written by the LLM, replayed from a cassette', () => {
  let service: Service;
  let out: { dir: string; dispose(): Promise<void> };
  let scripted: ScriptedOpenAI | undefined;
  let result: GenerateApiResult;
  const saved = {
    mode: process.env.SUTURE_CASSETTE_MODE,
    key: process.env.OPENAI_API_KEY,
    base: process.env.OPENAI_BASE_URL,
  };

  beforeAll(async () => {
    requirePythonModules();
    delete process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_BASE_URL;
    service = await startExampleService();
    out = await tempDir('suture-api-business-');
    let config = 'suture.config.json';
    if (RECORD) {
      scripted = await startScriptedOpenAI();
      await rm(CASSETTE, { recursive: true, force: true });
      await mkdir(CASSETTE, { recursive: true });
      config = join(out.dir, 'record.config.json');
      await writeFile(
        config,
        JSON.stringify({
          // only the fixers are read from it; a project must lie inside the config's folder
          projects: [{ name: 'shop', root: '.', runner: 'pytest' }],
          fixers: [
            'hints',
            [
              'openai',
              {
                model: 'gpt-4.1-mini',
                baseURL: scripted.baseURL,
                apiKey: 'sk-record-0123456789abcdef',
                cassette: { path: CASSETTE, mode: 'record' },
              },
            ],
          ],
        }),
      );
    } else process.env.SUTURE_CASSETTE_MODE = 'replay';
    result = await generateApi({
      spec: 'openapi.yaml',
      rules: 'rules.md',
      config,
      cwd: EXAMPLE,
      baseUrl: service.url,
      out: join(out.dir, 'api-tests'),
      stream: captured(),
      env: { ...process.env, API_TOKEN: TOKEN },
    });
  }, 900_000);

  afterAll(async () => {
    await service?.stop();
    await scripted?.close();
    await out?.dispose();
    for (const [name, value] of [
      ['SUTURE_CASSETTE_MODE', saved.mode],
      ['OPENAI_API_KEY', saved.key],
      ['OPENAI_BASE_URL', saved.base],
    ] as const)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
  });

  it('writes a scenario per rule, heals their script mistakes in the tests, and reports the two rules the service breaks', async () => {
    expect(result.report?.projects[0]?.error ?? result.report?.error).toBeUndefined();
    expect(result.mode).toBe('business');
    const tests = await readFile(join(result.outDir, 'test_business.py'), 'utf8');
    expect(tests).not.toContain('is not written yet');
    // the three script mistakes the model made, repaired by the judge
    expect(tests).not.toContain('"total_price"');
    expect(tests).not.toContain('"/order/{orderId}"');
    expect(tests).not.toContain('"qty":');
    const md = await readFile(join(result.outDir, 'testcases.md'), 'utf8');
    const rows = md.split('\n').filter((l) => l.includes('test_business.py::'));
    expect(rows).toHaveLength(5);
    expect(
      rows.filter((r) => r.includes('| ✅ |') && /\| 1( \(expectation changed\))? \|$/.test(r)),
    ).toHaveLength(3);
    expect(rows.filter((r) => r.includes('| 🐛 |'))).toHaveLength(2);
    // every bug of interface mode, and the two rules: R1 from the LLM, R4 (a 500) from the judge
    const ruleBugs = result.bugs.bugs.filter((b) => b.test.startsWith('test_business.py::'));
    expect(ruleBugs.map((b) => [b.test.replace(/.*_rule_/, ''), b.found_by])).toEqual([
      ['r4', '@suture/generator-openapi/judge'],
      ['r1', '@suture/llm-openai'],
    ]);
    expect(result.bugs.bugs.filter((b) => !b.test.startsWith('test_business.py::'))).toHaveLength(2);
    expect(result.totals.failing).toBe(0);
  });

  it('ran on the cassette: one recorded answer per scenario and one for the product bug', async () => {
    const files = await readdir(CASSETTE);
    expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(6);
    if (scripted) expect(scripted.calls).toHaveLength(6);
    // the gate's heal of the product bug answered once; a replay makes no call and says it replayed
    expect(result.report!.totals).toMatchObject(
      scripted ? { llmCalls: 6 - 5 } : { llmCalls: 0, costUsd: 0, replayedAnswers: 6 - 5 },
    );
  });
});
