import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AutoRunReportSchema } from '@suture/core';
import { afterAll, describe, expect, it } from 'vitest';
import { startMockOpenAI, type Reply } from '../../../../llm-openai/test/mock-openai.js';
import { cleanup, REPO, workspace } from '../cli-support.js';
import { createAnswer, generate } from './llm-support.js';
import { requirePythonModule } from './support.js';

// examples/generate-python: `suture generate tests` with the LLM generator replays the example's
// cassette, with no key and no request to any server, and keeps tests that add coverage.
// SUTURE_RECORD_CASSETTES=1 records the cassette again against a local server speaking Chat
// Completions that answers as a model would (the answers below).
const EXAMPLE = join(REPO, 'examples', 'generate-python');
const CASSETTE = join(EXAMPLE, 'cassette');
const RECORD = process.env.SUTURE_RECORD_CASSETTES === '1';
/** The command of the example's README, as a user types it after `npx suture`. */
const COMMAND = ['generate', 'tests', 'inventory/stock.py', '--generator', 'openai'];
const OFFLINE = { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined, SUTURE_CASSETTE_MODE: undefined };

const FIRST = `import pytest

from inventory.stock import OutOfStock, reserve, restock


def test_reserve_takes_the_quantity_off_the_shelf():
    stock = {"tea": 5}
    assert reserve(stock, "tea", 2) == 3
    assert stock == {"tea": 3}


def test_reserve_refuses_more_than_the_shelf_holds():
    stock = {"tea": 1}
    with pytest.raises(OutOfStock):
        reserve(stock, "tea", 2)
    assert stock == {"tea": 1}


@pytest.mark.parametrize("qty", [0, -1])
def test_reserve_refuses_a_quantity_that_is_not_positive(qty):
    with pytest.raises(ValueError):
        reserve({"tea": 5}, "tea", qty)


def test_restock_fills_up_to_the_capacity():
    stock = {"tea": 95}
    assert restock(stock, "tea", 10) == 5
    assert stock == {"tea": 100}
`;

const SECOND = `import pytest

from inventory.stock import restock


def test_restock_refuses_a_negative_quantity():
    stock = {"tea": 1}
    with pytest.raises(ValueError):
        restock(stock, "tea", -1)
    assert stock == {"tea": 1}


def test_restock_of_a_new_item_fits_entirely():
    stock = {}
    assert restock(stock, "tea", 3) == 0
    assert stock == {"tea": 3}
`;

/** The model of the recording: the first generation's file, then one for the line it left uncovered. */
function model(request: { raw: string }): Reply {
  const second = request.raw.includes('generation attempt: 2');
  return {
    kind: 'call',
    answer: second
      ? createAnswer('tests/gen/test_gen_stock_2.py', SECOND)
      : createAnswer('tests/gen/test_gen_stock.py', FIRST),
    tokens: { input: second ? 2900 : 2300, output: second ? 180 : 330 },
  };
}

async function record(): Promise<void> {
  const mock = await startMockOpenAI();
  mock.fallback(model);
  try {
    await rm(CASSETTE, { recursive: true, force: true });
    await mkdir(CASSETTE, { recursive: true });
    const copy = await workspace(EXAMPLE);
    await rm(join(copy, 'cassette'), { recursive: true, force: true });
    const config = JSON.parse(await readFile(join(copy, 'suture.config.json'), 'utf8')) as {
      fixers: Array<[string, Record<string, unknown>]>;
    };
    Object.assign(config.fixers[0]![1], {
      baseURL: mock.baseURL,
      cassette: { path: CASSETTE, mode: 'record' },
    });
    await writeFile(join(copy, 'suture.config.json'), JSON.stringify(config));
    const r = await generate(COMMAND, copy, { ...OFFLINE, OPENAI_API_KEY: 'sk-record-0123456789abcdef' });
    if (r.code !== 0) throw new Error(`recording failed (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  } finally {
    await mock.close();
  }
}

afterAll(cleanup);

describe('examples/generate-python on its cassette', () => {
  it('replays the recorded answers with no key and keeps the tests that add coverage', async (t) => {
    requirePythonModule(t, 'coverage', 'python3 -m pip install coverage');
    if (RECORD) await record();
    expect((await readdir(CASSETTE)).filter((f) => f.endsWith('.json'))).toHaveLength(2);
    const copy = await workspace(EXAMPLE);
    const r = await generate(COMMAND, copy, OFFLINE);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('kept    tests/gen/test_gen_stock.py');
    expect(r.stdout).toContain('kept    tests/gen/test_gen_stock_2.py');
    expect(r.stdout).toContain('2 of 2 generated files kept');
    const md = r.stdout.match(/report: (\S+)/)![1]!;
    const report = AutoRunReportSchema.parse(
      JSON.parse(await readFile(join(copy, md.replace(/report\.md$/, 'report.json')), 'utf8')),
    );
    expect(report.coverage.after.lines.covered).toBeGreaterThan(report.coverage.before.lines.covered);
    expect(report.coverage.uncoveredAfter).toEqual([]);
    // the answers came from the cassette: no call was made or paid for, and the totals say so
    expect(report.totals).toMatchObject(
      RECORD
        ? { generated: 2, kept: 2, llmCalls: 2 }
        : { generated: 2, kept: 2, llmCalls: 0, costUsd: 0, replayedAnswers: 2 },
    );
    expect(report.generations[1]!.uncoveredGiven).toEqual([{ file: 'inventory/stock.py', lines: [22] }]);
    expect(await readFile(join(copy, 'tests/gen/test_gen_stock.py'), 'utf8')).toBe(FIRST);
    expect(existsSync(join(EXAMPLE, 'tests', 'gen'))).toBe(false);
  }, 600_000);
});
