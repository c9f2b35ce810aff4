import { describe, expect, it } from 'vitest';
import { FixProposalSchema } from '../api/contracts/fix.js';
import { answerToProposal, llmAnswerJsonSchema, redactProposal } from './answer.js';

type JsonSchema = {
  type?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
};

/** Every object in the schema, however nested. */
function objects(schema: JsonSchema, path = '$'): Array<[string, JsonSchema]> {
  const out: Array<[string, JsonSchema]> = [];
  if (schema.type === 'object') out.push([path, schema]);
  for (const [k, v] of Object.entries(schema.properties ?? {})) out.push(...objects(v, `${path}.${k}`));
  if (schema.items) out.push(...objects(schema.items, `${path}[]`));
  for (const [i, v] of (schema.anyOf ?? []).entries()) out.push(...objects(v, `${path}|${i}`));
  return out;
}

describe('llmAnswerJsonSchema', () => {
  it('is valid for strict structured output: every object closed with every property required', () => {
    const schema = llmAnswerJsonSchema() as JsonSchema;
    expect(schema).not.toHaveProperty('$schema');
    const found = objects(schema);
    expect(found.map(([p]) => p)).toEqual(['$', '$.edits[]', '$.bug|0']);
    for (const [, o] of found) {
      expect(o.additionalProperties).toBe(false);
      expect([...(o.required ?? [])].sort()).toEqual(Object.keys(o.properties ?? {}).sort());
    }
  });
});

describe('answerToProposal', () => {
  const base = { rationale: 'r', edits: [], bug: null, diagnosis: null };
  const ok = (raw: unknown) => {
    const r = answerToProposal(raw, {
      inputTokens: 3,
      outputTokens: 4,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      costUsd: 0.5,
      calls: 1,
    });
    if (!r.ok) throw new Error(r.reason);
    return FixProposalSchema.parse(r.proposal);
  };

  it('turns edits into search/replace and whole-file edits, with the usage', () => {
    const p = ok({
      ...base,
      verdict: 'edits',
      edits: [
        { file: 'a.py', search: 'x', replace: 'y', content: null },
        { file: 'b.py', search: null, replace: null, content: 'all\n' },
      ],
    });
    expect(p).toEqual({
      verdict: 'edits',
      rationale: 'r',
      edits: [
        { file: 'a.py', search: 'x', replace: 'y' },
        { file: 'b.py', content: 'all\n' },
      ],
      usage: expect.objectContaining({ costUsd: 0.5, calls: 1 }),
    });
  });

  it('accepts an answer given as a JSON string, and fields a model left out when null', () => {
    const p = ok(
      JSON.stringify({
        verdict: 'edits',
        rationale: 'r',
        edits: [{ file: 'a.py', search: 'x', replace: '' }],
      }),
    );
    expect(p).toMatchObject({ verdict: 'edits', edits: [{ file: 'a.py', search: 'x', replace: '' }] });
  });

  it('keeps a product-bug report and drops its null location', () => {
    const bug = { summary: 's', expected: 'e', actual: 'a', evidence: 'ev', file: null, symbol: 'total' };
    expect(ok({ ...base, verdict: 'product-bug', bug })).toMatchObject({
      verdict: 'product-bug',
      bug: { summary: 's', symbol: 'total' },
    });
    expect((ok({ ...base, verdict: 'product-bug', bug }) as { bug: object }).bug).not.toHaveProperty('file');
  });

  it('falls back to the rationale as the diagnosis of an unfixable answer', () => {
    expect(ok({ ...base, verdict: 'unfixable', rationale: 'needs a new dependency' })).toMatchObject({
      verdict: 'unfixable',
      diagnosis: 'needs a new dependency',
    });
  });

  it.each([
    ['not JSON', 'here is my fix: ...', /not JSON/],
    ['an unknown verdict', { ...base, verdict: 'maybe' }, /verdict/],
    ['edits with no edit', { ...base, verdict: 'edits' }, /no edit/],
    [
      'an edit with neither search nor content',
      { ...base, verdict: 'edits', edits: [{ file: 'a.py', search: null, replace: 'y', content: null }] },
      /edits\.0 \(a\.py\)/,
    ],
    ['a product-bug without a report', { ...base, verdict: 'product-bug' }, /without a bug report/],
    ['an extra field', { ...base, verdict: 'unfixable', confidence: 0.9 }, /confidence/],
    [
      'a number for a string',
      { ...base, verdict: 'edits', edits: [{ file: 7, search: 'x', replace: 'y', content: null }] },
      /edits\.0\.file/,
    ],
  ])('refuses %s with a reason', (_name, raw, reason) => {
    const r = answerToProposal(raw);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(reason);
  });
});

describe('redactProposal', () => {
  const redact = (s: string): string => s.replaceAll('hunter2hunter2', '[REDACTED]');

  it('masks the texts that reach reports and leaves the patch alone', () => {
    const edits = [{ file: 'a.py', search: 'pw = "hunter2hunter2"', replace: 'pw = env()' }];
    expect(
      redactProposal({ verdict: 'edits', rationale: 'hunter2hunter2 was hard-coded', edits }, redact),
    ).toEqual({ verdict: 'edits', rationale: '[REDACTED] was hard-coded', edits });
    expect(
      redactProposal({ verdict: 'unfixable', diagnosis: 'login as hunter2hunter2 fails' }, redact),
    ).toEqual({ verdict: 'unfixable', diagnosis: 'login as [REDACTED] fails' });
    const bug = {
      summary: 's',
      expected: 'e',
      actual: 'sent hunter2hunter2',
      evidence: 'ev',
      symbol: 'login',
    };
    expect(redactProposal({ verdict: 'product-bug', rationale: 'r hunter2hunter2', bug }, redact)).toEqual({
      verdict: 'product-bug',
      rationale: 'r [REDACTED]',
      bug: { ...bug, actual: 'sent [REDACTED]' },
    });
    expect(redactProposal({ verdict: 'product-bug', bug }, redact)).not.toHaveProperty('rationale');
  });
});
