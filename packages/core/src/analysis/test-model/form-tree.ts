import type { AssertionForm, Side } from './form.js';
import type { Node } from './plain-tree.js';
import { callsIn, cleanText, namesIn, type Dialect } from './tree-walk.js';
import { NO_CONSTANTS } from './tree-values.js';

/** A comparison's operand as a form sees it: checked when it names something, and whether it calls. */
export function sideOf(n: Node, d: Dialect, value?: Side['value']): Side {
  return {
    text: cleanText(n, d),
    subject: namesIn([n], d).length > 0,
    calls: callsIn([n], d).length > 0,
    ...(value ? { value } : {}),
  };
}

const SHORT_CIRCUIT = /^(?:&&|\|\||and|or)$/;

/**
 * `when (?) ` for each condition the assertion runs under within its function (an `if`, a loop's
 * condition, a `?:`, the right of `&&`/`||`): an assertion newly put under one checks only when
 * the condition holds, which a test that checks the same thing never needed.
 */
export function conditionsAround(node: Node, d: Dialect): string {
  let prefix = '';
  for (let child = node, p = node.parent; p; child = p, p = p.parent) {
    if (d.functions.has(p.type) || p.type === 'function_definition') break;
    const condition = p.childForFieldName('condition');
    const operator = p.childForFieldName('operator')?.text ?? p.children[1]?.type ?? '';
    const shortCircuit = SHORT_CIRCUIT.test(operator) && p.childForFieldName('right')?.id === child.id;
    const test = shortCircuit ? p.childForFieldName('left') : condition;
    // a condition with a constant value is none: always true runs it, always false disarms it
    if (test && test.id !== child.id && d.truth(test, NO_CONSTANTS) === undefined)
      prefix = `when (?) ${prefix}`;
  }
  return prefix;
}

/** A reader's form function, with the conditions the assertion runs under in front of its form. */
export function underConditions(
  form: (node: Node, d: Dialect) => AssertionForm | undefined,
): (node: Node, d: Dialect) => AssertionForm | undefined {
  return (node, d) => {
    const f = form(node, d);
    return f && { ...f, form: conditionsAround(node, d) + f.form };
  };
}
