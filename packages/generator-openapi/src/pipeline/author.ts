import type { Fixer, FixRequest, Logger } from '@suture/core';
import { loadPlugin, splitSpec } from '@suture/core/host';
import type { PlannedCase } from '../plan/cases.js';
import type { Plan } from '../plan/plan.js';
import { objectShape } from '../spec/json-schema.js';
import { extraFixers } from './run-gate.js';

const HOW = `Write the body of this pytest test so that it checks the rule against the running service.
Use only what conftest.py gives: the fixtures api and cleanup, and the fixtures below that create an
item for the test; api.call(method, path_template, path_args=None, query=None, json=None, auth=True)
returns a requests.Response; assert_status(resp, *statuses) and assert_contract(resp, operationId)
check an answer; cleanup.add("DELETE", path_template, path_args) deletes what the test created.
Replace the pytest.fail line; keep the decorator, the signature (add fixtures to it if needed) and the docstring.`;

/** The API as the LLM needs it to write a scenario: operations, their fields, the fixtures. */
function apiSummary(plan: Plan): string {
  const ops = plan.model.operations.map((o) => {
    const fields = o.body ? Object.keys(objectShape(o.body.schema).properties).join(', ') : '';
    const success = o.responses
      .filter((r) => /^2/.test(r.status))
      .map((r) => r.status)
      .join('/');
    const other = o.responses
      .filter((r) => !/^2/.test(r.status))
      .map((r) => r.status)
      .join('/');
    return `- ${o.id}: ${o.method} ${o.path}${fields ? ` body {${fields}}` : ''} -> ${success}${other ? `, or ${other}` : ''}${o.secured ? ' (credential sent by api.call)' : ''}`;
  });
  const fixtures = plan.resources.map(
    (r) => `- ${r.fixture}: a ${r.name} created by ${r.create} (a dict with "${r.idField}")`,
  );
  return ['Operations:', ...ops, 'Fixtures:', ...fixtures].join('\n');
}

function requestFor(c: PlannedCase, plan: Plan, root: string, file: string, content: string): FixRequest {
  const lines = content.split('\n');
  // 0-based line of the def: the decorator is the line before, the docstring and the stub after
  const def = lines.findIndex((l) => l.startsWith(`def ${c.test}(`));
  const start = def;
  const end = def + 3;
  return {
    project: { name: 'api', root, language: 'python' },
    failure: {
      id: `api:author-${c.id}`,
      kind: 'assertion',
      title: `${c.id} is not written yet: ${c.source}`,
      tests: [`${file}::${c.test}`],
      blocksAll: false,
      location: { file, line: def + 1, symbol: c.test },
      frames: [],
      evidence: `Failed: ${c.id} is not written yet: the scenario of ${c.source}\n\nRule ${c.scenario}\n\n${HOW}\n\n${apiSummary(plan)}`,
      fingerprint: `author-${c.id}`,
      repairable: true,
      diagnostics: [],
      details: {},
    },
    scope: {
      entries: [{ file, symbols: [c.test], role: 'test', reasons: ['the scenario to write'], depth: 0 }],
      excluded: [],
    },
    sources: [
      {
        file,
        startLine: start,
        endLine: end,
        text: lines.slice(def - 1, end).join('\n'),
        reason: 'the stub of the scenario',
      },
    ],
    history: [],
    policy: {
      editable: 'tests',
      allowedPaths: [file],
      deniedPaths: [],
      allowTestWeakening: false,
      allowNewFiles: false,
      maxFilesPerAttempt: 1,
    },
    attempt: 1,
    maxAttempts: 1,
    tokenBudget: 4000,
  };
}

/**
 * Business mode: each rule's stub is written by the configured LLM fixers, asked as they would be
 * for a failing test (the stub fails, naming its rule; the evidence gives the rule, the API and
 * the helpers). The answer's edits are applied to the file here, before the gate; a stub no fixer
 * wrote stays, fails, and is tried again by the gate's ladder.
 */
export async function authorScenarios(input: {
  cases: readonly PlannedCase[];
  plan: Plan;
  root: string;
  file: string;
  content: string;
  cwd: string;
  fixers: string[];
  configFile?: string;
  logger: Logger;
  signal: AbortSignal;
  stream: NodeJS.WritableStream;
}): Promise<{ content: string; written: string[] }> {
  const { specs, fromDir } = await extraFixers({
    cwd: input.cwd,
    fixers: input.fixers,
    ...(input.configFile ? { configFile: input.configFile } : {}),
  });
  const fixers: Fixer[] = [];
  for (const [i, spec] of specs.entries())
    fixers.push(
      await loadPlugin(
        'fixer',
        splitSpec(spec, { configFile: input.configFile ?? '--fixer', keyPath: `fixers[${i}]` }),
        fromDir,
      ),
    );
  let content = input.content;
  const written: string[] = [];
  for (const c of input.cases) {
    for (const fixer of fixers) {
      const answer = await fixer
        .propose(requestFor(c, input.plan, input.root, input.file, content), {
          signal: input.signal,
          logger: input.logger,
          root: input.root,
        })
        .catch((error: Error) => ({ verdict: 'error' as const, diagnosis: error.message }));
      if (answer.verdict !== 'edits') {
        input.stream.write(
          `  ${c.id}: ${fixer.name} wrote no scenario (${answer.verdict}${'diagnosis' in answer && answer.diagnosis ? `: ${answer.diagnosis.split('\n')[0]}` : ''})\n`,
        );
        continue;
      }
      let next = content;
      for (const edit of answer.edits) {
        if ('search' in edit && next.split(edit.search).length === 2)
          next = next.replace(edit.search, () => edit.replace);
        else if ('content' in edit) next = edit.content;
      }
      if (next !== content) {
        content = next;
        written.push(c.id);
        break;
      }
    }
  }
  return { content, written };
}
