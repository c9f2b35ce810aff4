import { describe, expect, it } from 'vitest';
import { GateReportSchema } from '../api/contracts/report.js';
import { consoleReporter } from '../reporters/console.js';
import { renderMarkdown } from '../reporters/markdown.js';
import { sampleReport } from '../reporters/sample-report.test-support.js';
import { finishReport } from './finish-report.js';

function consoleText(report: ReturnType<typeof sampleReport>): string {
  let out = '';
  consoleReporter({}, { write: (s: string) => (out += s) }, { CI: '1' }).onRunEnd!(report, {
    runDir: '/repo/.suture/runs/x',
    root: '/repo',
  });
  return out;
}

describe('finishReport', () => {
  it('keeps a blocking gate exit 1 and adds the per-file summary', () => {
    const report = finishReport(sampleReport(), { blocking: true });
    expect(report).toMatchObject({ exitCode: 1, blocking: true });
    expect(report.wouldBlock).toBeUndefined();
    expect(report.files.map((f) => `${f.project}:${f.file}:${f.state}`)).toEqual([
      'py:tests/test_a.py:failing',
      'cpp:(no file):failing',
    ]);
    expect(GateReportSchema.parse(JSON.parse(JSON.stringify(report)))).toEqual(report);
  });

  it('lets failures through with blocking false: exit 0, and the report keeps what would have blocked', () => {
    const report = finishReport(sampleReport(), { blocking: false });
    expect(report).toMatchObject({
      exitCode: 0,
      blocking: false,
      wouldBlock: {
        exitCode: 1,
        stillFailing: 2,
        projects: [
          { name: 'py', status: 'failed_after_repair' },
          { name: 'cpp', status: 'failed' },
        ],
      },
    });
    expect(GateReportSchema.parse(JSON.parse(JSON.stringify(report)))).toEqual(report);
    const verdict = 'failures remain; the gate did not block (blocking: false)';
    expect(renderMarkdown(report).split('\n')[0]).toBe(`## suture: ${verdict} (check mode)`);
    expect(consoleText(report)).toContain(`\n${verdict}: 5 tests, 3 failure group(s)`);
  });

  it('keeps an internal error exit 3 and a green gate exit 0 without a wouldBlock, blocking or not', () => {
    const broken = finishReport(sampleReport({ exitCode: 3, error: 'boom' }), { blocking: false });
    expect(broken).toMatchObject({ exitCode: 3, blocking: false });
    expect(broken.wouldBlock).toBeUndefined();
    const green = finishReport(sampleReport({ exitCode: 0 }), { blocking: false });
    expect(green.exitCode).toBe(0);
    expect(green.wouldBlock).toBeUndefined();
    expect(renderMarkdown(green).split('\n')[0]).toBe('## suture: green (check mode)');
    expect(consoleText(finishReport(sampleReport(), { blocking: true }))).toContain(
      '\nfailures remain: 5 tests',
    );
  });
});
