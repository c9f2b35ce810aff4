import { objectShape } from '../spec/json-schema.js';
import { similarity } from '../plan/names.js';
import { declaredResponse } from './check-exchange.js';
import type { Exchange } from './exchanges.js';
import type { JudgeInput } from './decide.js';

/** A change to one test function: its source before and after, and why. */
export interface ScriptFix {
  search: string;
  replace: string;
  why: string;
}

export type FixNeed =
  | { kind: 'url'; exchange: Exchange }
  | { kind: 'request'; exchange: Exchange; problems: string[]; opId: string }
  | { kind: 'expectation'; exchange: Exchange; opId: string };

const template = (path: string): string => path.replace(/\{[^}]+\}/g, '{}');

/** `qty` for `quantity`: the same first letter, and the rest in order (an abbreviation). */
function abbreviates(short: string, long: string): boolean {
  const a = short.toLowerCase();
  const b = long.toLowerCase();
  if (!a || a[0] !== b[0] || a.length >= b.length) return false;
  let j = 0;
  for (const ch of b) if (ch === a[j]) j++;
  return j === a.length;
}

function best<T>(items: readonly T[], score: (t: T) => number, floor: number): T | undefined {
  let top: T | undefined;
  let topScore = floor;
  for (const t of items) {
    const s = score(t);
    if (s > topScore) {
      top = t;
      topScore = s;
    }
  }
  return top;
}

function change(source: string, from: string, to: string, why: string): ScriptFix | undefined {
  if (!source.includes(from) || from === to) return undefined;
  return { search: source, replace: source.split(from).join(to), why };
}

/** The body keys the schema does not know, each paired with the missing required field it most resembles. */
function renamedKeys(input: JudgeInput, e: Exchange, opId: string): Array<[string, string]> {
  const schema = input.contract.operations[opId]?.body?.schema;
  const body = e.request.body;
  if (!schema || !body || typeof body !== 'object' || Array.isArray(body)) return [];
  const { properties, required } = objectShape(schema);
  const sent = Object.keys(body);
  const unknown = sent.filter((k) => !(k in properties));
  const missing = required.filter((k) => !sent.includes(k));
  const pairs: Array<[string, string]> = [];
  for (const m of missing) {
    const from = best(
      unknown,
      (u) =>
        Math.max(
          similarity(u, m),
          m.toLowerCase().startsWith(u.toLowerCase()) || abbreviates(u, m) ? 0.6 : 0,
        ),
      0.4,
    );
    if (from) pairs.push([from, m]);
  }
  return pairs;
}

/**
 * A deterministic repair of the test, when the mistake is one it can name: a path the document
 * does not have (the nearest one of the same method), a body key misspelt (the missing required
 * field it resembles), an expected status the document does not declare where the answer's is,
 * a response field the schema does not have (the declared field it resembles).
 */
export function scriptFix(input: JudgeInput, need: FixNeed): ScriptFix | undefined {
  const source = input.source;
  if (!source) return undefined;
  const e = need.exchange;
  if (need.kind === 'url') {
    const candidates = Object.values(input.contract.operations).filter((o) => o.method === e.method);
    const target = best(candidates, (o) => similarity(template(o.path), template(e.path)), 0.6);
    if (!target) return undefined;
    return change(
      source,
      JSON.stringify(e.path),
      JSON.stringify(target.path),
      `${e.method} ${e.path} is not in the document; ${target.path} is`,
    );
  }
  if (need.kind === 'request') {
    let fixed = source;
    const whys: string[] = [];
    for (const [from, to] of renamedKeys(input, e, need.opId)) {
      if (!fixed.includes(`"${from}":`)) continue;
      fixed = fixed.split(`"${from}":`).join(`"${to}":`);
      whys.push(`the body field "${from}" is "${to}" in the document`);
    }
    return whys.length > 0 ? { search: source, replace: fixed, why: whys.join('; ') } : undefined;
  }
  const op = input.contract.operations[need.opId];
  if (!op) return undefined;
  const status = e.response.status;
  const expected = /answered (\d{3}), expected (\d{3})\b/.exec(input.evidence);
  if (expected && Number(expected[1]) === status && !declaredResponse(op, Number(expected[2]))) {
    const calls = source.match(new RegExp(`assert_status\\((\\w+), ${expected[2]}\\)`, 'g')) ?? [];
    if (calls.length === 1)
      return change(
        source,
        calls[0]!,
        calls[0]!.replace(`, ${expected[2]})`, `, ${status})`),
        `${op.method} ${op.path} declares ${status}, not ${expected[2]}, and answered ${status}`,
      );
  }
  const key = /KeyError: '([^']+)'/.exec(input.evidence)?.[1];
  const schema = declaredResponse(op, status)?.spec.schema;
  if (key && schema) {
    const fields = Object.keys(objectShape(schema).properties);
    const body = e.response.body;
    const present = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : fields;
    const target = best(
      fields.filter((f) => present.includes(f)),
      (f) => Math.max(similarity(f, key), key.toLowerCase().includes(f.toLowerCase()) ? 0.6 : 0),
      0.4,
    );
    if (target && !fields.includes(key))
      return change(
        source,
        `[${JSON.stringify(key)}]`,
        `[${JSON.stringify(target)}]`,
        `the answer of ${need.opId} has "${target}", not "${key}"`,
      );
  }
  return undefined;
}
