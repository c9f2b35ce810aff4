import type { LoadResult } from './run.js';

const COLUMNS = [
  'operation',
  'method',
  'path',
  'requests',
  'rps',
  'p50_ms',
  'p90_ms',
  'p99_ms',
  'non_2xx',
  'errors',
  'timeouts',
  'error_rate',
  'verdict',
];

const csvCell = (v: unknown): string => {
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** load_test.csv: one row per endpoint. */
export function loadCsv(result: LoadResult): string {
  const rows = result.endpoints.map((e) =>
    [
      e.operation,
      e.method,
      e.path,
      e.requests,
      e.rps,
      e.p50Ms,
      e.p90Ms,
      e.p99Ms,
      e.non2xx,
      e.errors,
      e.timeouts,
      e.errorRate,
      e.failed.length ? `failed: ${e.failed.join('; ')}` : 'passed',
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[COLUMNS.join(','), ...rows].join('\n')}\n`;
}

const esc = (s: unknown): string =>
  String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** load_test_report.html: one self-contained page, a row and a latency bar per endpoint. */
export function loadHtml(result: LoadResult, title: string): string {
  const worst = Math.max(1, ...result.endpoints.map((e) => e.p99Ms));
  const rows = result.endpoints
    .map((e) => {
      const bar = (ms: number, cls: string): string =>
        `<span class="${cls}" style="width:${((ms / worst) * 100).toFixed(1)}%"></span>`;
      return `<tr class="${e.failed.length ? 'failed' : 'passed'}"><td><code>${esc(e.method)} ${esc(e.path)}</code><br><small>${esc(e.operation)}</small></td><td>${e.requests}</td><td>${e.rps}</td><td>${e.p50Ms}</td><td>${e.p90Ms}</td><td>${e.p99Ms}</td><td class="bars" aria-hidden="true">${bar(e.p99Ms, 'p99')}${bar(e.p90Ms, 'p90')}${bar(e.p50Ms, 'p50')}</td><td>${e.non2xx}</td><td>${e.errors}</td><td>${(e.errorRate * 100).toFixed(2)}%</td><td>${e.failed.length ? `failed: ${esc(e.failed.join('; '))}` : 'passed'}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Load test: ${esc(title)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2rem; color: #1b1f24; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #d0d7de; padding: .4rem .6rem; text-align: right; vertical-align: middle; }
th:first-child, td:first-child, td:last-child { text-align: left; }
tr.failed td:last-child { color: #b42318; font-weight: 600; }
tr.passed td:last-child { color: #1a7f37; }
.bars { position: relative; width: 12rem; height: 1.1rem; }
.bars span { position: absolute; left: 0; top: .2rem; height: .7rem; border-radius: 2px; }
.p99 { background: #f4b8b0; } .p90 { background: #f2d48c; } .p50 { background: #8cc5a0; }
</style>
</head>
<body>
<h1>Load test: ${esc(title)}</h1>
<p>${result.endpoints.length} endpoint(s), ${result.connections} connection(s), ${result.durationS} s each; ${result.passed ? 'every endpoint within its thresholds' : 'an endpoint broke a threshold'}. Latency in ms; bars: p50 (green), p90, p99.</p>
<table>
<thead><tr><th>endpoint</th><th>requests</th><th>req/s</th><th>p50</th><th>p90</th><th>p99</th><th>latency</th><th>non-2xx</th><th>errors</th><th>error rate</th><th>verdict</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</body>
</html>
`;
}
