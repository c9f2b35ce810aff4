import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.js';
import { sampleReport } from './sample-report.test-support.js';

describe('the isolation line of the summary', () => {
  it('says where patches were validated and what confined their runs', () => {
    const md = renderMarkdown(
      sampleReport({
        isolation: {
          workspace: 'overlay',
          sandbox: 'strict',
          network: true,
          readOnly: true,
          envAllowlist: true,
          processes: 'pid-namespace',
          notes: [],
        },
      }),
    );
    expect(md).toContain(
      'Patches were validated in a copy-on-write overlay; the runs had no network but their own loopback, an environment allowlist, read-only outside the workspace, every process ended with its run.',
    );
  });

  it('names what was weaker than asked, and is left out of a report without it', () => {
    const md = renderMarkdown(
      sampleReport({
        isolation: {
          workspace: 'copy',
          sandbox: 'env-only',
          network: false,
          readOnly: false,
          envAllowlist: true,
          processes: 'process-group',
          notes: ['a private copy instead of an overlay: namespaces are refused here'],
        },
      }),
    );
    expect(md).toMatch(/in a private copy; the runs had the machine network, an environment allowlist/);
    expect(md).toContain('a private copy instead of an overlay: namespaces are refused here.');
    expect(renderMarkdown(sampleReport())).not.toContain('Patches were validated');
  });
});
