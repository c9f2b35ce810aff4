import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';
import { sampleReport } from './sample-report.test-support.js';

describe('the markdown summary', () => {
  it('names each file a run changed in the tree, once, and whether it was put back', () => {
    const report = sampleReport();
    const [initial] = report.projects[0]!.rounds;
    initial!.undone = [
      { file: 'lib/include/extra.h', change: 'deleted', restored: true },
      { file: 'lib/src/gen.c', change: 'modified', restored: false, reason: 'left as the run made it' },
    ];
    report.projects[0]!.rounds.push({ ...initial!, kind: 'regression', undone: [initial!.undone[0]!] });
    const md = renderMarkdown(report);
    expect(md).toContain('### Changes the runs made to the tree');
    expect(md.match(/extra\.h/g)).toHaveLength(1);
    expect(md).toContain('`lib/include/extra.h` deleted by the initial run, put back');
    expect(md).toContain('`lib/src/gen.c` modified by the initial run, left (left as the run made it)');
  });

  it('has no such section when the runs left the tree alone', () => {
    expect(renderMarkdown(sampleReport())).not.toContain('Changes the runs made');
  });
});
