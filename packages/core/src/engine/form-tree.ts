import type { Side } from './assertion-form.js';
import type { Node } from './model-grammar.js';
import { callsIn, cleanText, namesIn, type Dialect } from './model-tree.js';

/** A comparison's operand as a form sees it: checked when it names something, and whether it calls. */
export function sideOf(n: Node, d: Dialect, value?: Side['value']): Side {
  return {
    text: cleanText(n, d),
    subject: namesIn([n], d).length > 0,
    calls: callsIn([n], d).length > 0,
    ...(value ? { value } : {}),
  };
}
