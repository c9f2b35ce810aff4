import type { Rule } from '../data/rules.js';
import type { PlannedCase } from './cases.js';

/** Business mode: one scenario per rule, written by the LLM from a stub that names the rule. */
export function businessCases(rules: readonly Rule[], file: string, next: () => string): PlannedCase[] {
  return rules.map((rule) => {
    const id = next();
    return {
      id,
      kind: 'business',
      operation: 'rules',
      api: `rules (${file})`,
      scenario: `${rule.id}: ${rule.text}`,
      file: 'test_business.py',
      test: `test_${id.replace('-', '').toLowerCase()}_rule_${rule.id.toLowerCase()}`,
      expect: 'as the rule says',
      source: `${file} ${rule.id}`,
      fixtures: [],
      call: { method: 'GET', path: '/', pathArgs: {}, query: {}, auth: true },
      expectation: { kind: 'declared' },
    };
  });
}

/** The stub the LLM replaces: it fails, naming the rule, until the scenario is written. */
export function businessStub(c: PlannedCase): string {
  return [
    `@pytest.mark.case(${JSON.stringify(c.id)})`,
    `def ${c.test}(api, cleanup):`,
    `    """${c.scenario.replace(/"""/g, "'''").replace(/\\/g, '/')}"""`,
    `    pytest.fail(${JSON.stringify(`${c.id} is not written yet: the scenario of ${c.source}`)})`,
  ].join('\n');
}
