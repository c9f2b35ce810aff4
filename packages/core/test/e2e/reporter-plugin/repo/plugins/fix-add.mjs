// A local fixer that knows the one bug of this project.
export default () => ({
  name: 'fix-add',
  apiVersion: 1,
  async propose() {
    return {
      verdict: 'edits',
      edits: [{ file: 'src/math.mjs', search: 'a - b', replace: 'a + b' }],
      rationale: 'add adds',
    };
  },
});
