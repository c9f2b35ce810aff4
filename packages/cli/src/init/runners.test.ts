import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RUNNER_KEYWORD } from './runners.js';

const read = (path: string): string => readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8');

// A third-party runner is found only by the keyword: the guide must name the one init looks for.
describe('the suture-runner keyword', () => {
  it('is the one docs/runner.md tells runner authors to list, as its example does', () => {
    const guide = read('docs/runner.md');
    const section = guide.slice(guide.indexOf('### Found by `suture init`'));
    // markdown may wrap the sentence anywhere
    expect(section.split('\n## ')[0]!.replace(/\s+/g, ' ')).toContain(
      `lists the keyword \`${RUNNER_KEYWORD}\``,
    );
    const example = JSON.parse(read('docs/examples/runner-checks/package.json')) as { keywords: string[] };
    expect(example.keywords).toContain(RUNNER_KEYWORD);
  });
});
