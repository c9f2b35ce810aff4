import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { API_VERSION, z, type GateReport, type Reporter, portableReport, rootSpellings } from '@suture/core';
import { artifactsIn } from './artifacts.js';
import { renderPage } from './page.js';

const HtmlOptionsSchema = z
  .object({
    /** Where to write, relative to the run folder (or absolute). */
    file: z.string().min(1).default('report.html'),
    /** The page title; the run id is added. */
    title: z.string().default('suture report'),
  })
  .strict();

export type HtmlOptions = z.input<typeof HtmlOptionsSchema>;

/** The report.html of a finished run: the whole report embedded, links to the files next to it. */
export function renderReport(
  report: GateReport,
  artifacts: readonly string[],
  title = 'suture report',
): string {
  return renderPage(
    { mode: 'static', report, artifacts: [...artifacts], artifactBase: '' },
    { title: `${title} ${report.runId}`, served: false },
  );
}

/**
 * Writes one self-contained report.html per run into the run folder: no network, the data inside,
 * so it opens from disk or as a CI artifact. It links the run's report.json, results.xml,
 * summary.md, fixes.patch and bug_report.json that exist when it writes: list `html` after the
 * reporters that write them.
 */
export default function html(options: HtmlOptions = {}): Reporter {
  const parsed = HtmlOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(
      `invalid options: ${issue.path.join('.') || '(options)'}: ${issue.message}; the html reporter takes { "file": "report.html", "title": "..." }`,
    );
  }
  const { file, title } = parsed.data;
  return {
    name: '@suture/reporter-html',
    apiVersion: API_VERSION,
    async onRunEnd(report, { runDir, root }) {
      const target = isAbsolute(file) ? file : join(runDir, file);
      // the report as report.json holds it: no path of the machine the run was on
      const portable = portableReport(report, rootSpellings(root));
      const page = renderReport(portable, await artifactsIn(runDir), title);
      await mkdir(dirname(target), { recursive: true });
      // a reader opening the file mid-write sees the old page or the new one, never half of one
      const partial = `${target}.${process.pid}.tmp`;
      await writeFile(partial, page);
      await rename(partial, target);
    },
  };
}
