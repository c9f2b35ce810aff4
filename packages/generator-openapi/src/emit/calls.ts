import type { CallSpec } from '../plan/case-types.js';
import { pyString, pyValue } from './python.js';

/** `api.call("POST", "/users", json={...})` for a request, at an indentation. */
export function pyCall(call: CallSpec, indent = '    '): string {
  const args = [pyString(call.method), pyString(call.path)];
  if (Object.keys(call.pathArgs).length > 0) args.push(`path_args=${pyValue(call.pathArgs, indent)}`);
  if (Object.keys(call.query).length > 0) args.push(`query=${pyValue(call.query, indent)}`);
  if (call.raw !== undefined) args.push(`raw=${pyString(call.raw)}`);
  else if ('json' in call) args.push(`json=${pyValue(call.json, indent)}`);
  if (!call.auth) args.push('auth=False');
  const flat = `api.call(${args.join(', ')})`;
  if (flat.length + indent.length <= 100 && !flat.includes('\n')) return flat;
  return `api.call(\n${args.map((a) => `${indent}    ${a.replace(/\n/g, `\n    `)},`).join('\n')}\n${indent})`;
}

/** `{"userId": item["id"]}` for one item of a resource. */
export function itemArgs(param: string, from: string, field: string): string {
  return `{${pyString(param)}: ${from}[${pyString(field)}]}`;
}
