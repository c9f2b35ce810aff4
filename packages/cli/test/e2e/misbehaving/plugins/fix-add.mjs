import { API_VERSION } from '@suture/core';

// A fixer that heals the project's one bug.
export default function fixAdd() {
  return {
    name: 'fix-add',
    apiVersion: API_VERSION,
    async propose() {
      return {
        verdict: 'edits',
        edits: [{ file: 'calc.py', search: 'a - b', replace: 'a + b' }],
        rationale: 'add adds',
      };
    },
  };
}
