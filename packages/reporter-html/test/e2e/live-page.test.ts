import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GateReport } from '@suture/core';
import { snapshotTree } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import html, { startDashboard } from '../../src/index.js';
import { axeViolations, openBrowser } from './browser.js';
import { cleanup, gateShop, shopFixer, shopRepo } from './support.js';

afterAll(cleanup);

const DONE = '[data-project=shop] [data-live=done]';

describe('the live page of suture run --ui, on a real pytest run', () => {
  it('moves its counters, shows an attempt while it runs, and ends on the report of report.json', async (ctx) => {
    const browser = await openBrowser(ctx, 'live');
    const { repo, root } = await shopRepo();
    const dashboard = await startDashboard({ runsDir: join(repo, '.suture', 'runs'), live: true });
    try {
      const { page } = browser;
      await page.goto(dashboard.url);
      await page.waitForSelector('html[data-rendered]');
      // The suite's last test waits for this file, which is written once the page shows a finished
      // test: the page cannot pass this test without having moved while pytest ran.
      const pageGate = join(repo, 'page-gate');
      let release: () => void = () => {};
      const attemptShown = new Promise<void>((resolve) => (release = resolve));
      let held = false;
      const fixer = shopFixer(async () => {
        if (held) return;
        held = true;
        // the first answer waits until the page shows its attempt running (bounded: a page that
        // never shows it fails the verdicts below instead of hanging)
        await Promise.race([attemptShown, sleep(60_000)]);
      });
      const running = gateShop({
        repo,
        root,
        fixer,
        reporters: [html(), dashboard.reporter],
        env: { SHOP_PAGE_GATE: pageGate },
      });
      await page.waitForFunction((sel) => Number(document.querySelector(sel)?.textContent ?? 0) >= 1, DONE);
      const early = Number(await page.locator(DONE).innerText());
      await browser.screenshot('live-progress');
      await writeFile(pageGate, '');
      await page.waitForSelector('.live-attempt[data-verdict=running]');
      const runningAttempt = await page.locator('.live-attempt[data-verdict=running]').innerText();
      await browser.screenshot('live-attempt');
      release();
      const report = await running;
      await page.waitForSelector('[data-status=finished]');
      await page.waitForSelector('#final [data-counter=tests]');
      await browser.screenshot('live-final');

      const json = JSON.parse(await readFile(join(report.runDir!, 'report.json'), 'utf8')) as GateReport;
      const initial = json.projects[0]!.rounds[0]!;
      expect(early).toBeGreaterThanOrEqual(1);
      expect(early).toBeLessThan(initial.tests.length);
      expect(runningAttempt).toMatch(/attempt 1 with shop-fixer/);

      // the final page is report.json: totals, the project's status, every group, every attempt
      for (const key of [
        'tests',
        'passed',
        'failed',
        'failures',
        'healed',
        'stillFailing',
        'bugs',
        'flaky',
      ] as const)
        expect(await page.locator(`#final [data-counter=${key}]`).innerText(), key).toBe(
          String(json.totals[key]),
        );
      expect(await page.locator('#live-projects [data-project=shop] .badge').innerText()).toBe(
        json.projects[0]!.status.replace(/_/g, ' '),
      );
      const groups = await page
        .locator('#final article.failure')
        .evaluateAll((els) =>
          els.map((e) => [
            (e as HTMLElement).dataset.outcome,
            e.querySelector('.failure-title')!.textContent,
          ]),
        );
      expect(groups).toEqual(json.projects[0]!.failures.map((f) => [f.outcome, f.failure.title]));
      const liveVerdicts = await page
        .locator('.live-attempt')
        .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.verdict));
      expect(liveVerdicts).toEqual(
        json.projects[0]!.failures.flatMap((f) => f.attempts.map((a) => a.verdict)),
      );
      expect(liveVerdicts).toEqual(['failed-validation', 'healed', 'product-bug']);
      // the running count goes on across the runs of the suite instead of starting again at each
      const rounds = json.projects[0]!.rounds;
      expect(rounds.length).toBeGreaterThan(2);
      expect(await page.locator('[data-project=shop] [data-live=runs]').innerText()).toBe(
        String(rounds.length),
      );
      expect(await page.locator('[data-project=shop] [data-live=total]').innerText()).toBe(
        String(rounds.reduce((n, r) => n + r.tests.length, 0)),
      );
      // the files of the run, served by the dashboard
      const patchLink = page.locator('#final nav.artifacts a', { hasText: 'fixes.patch' });
      const res = await page.request.get(
        new URL((await patchLink.getAttribute('href'))!, dashboard.url).href,
      );
      expect(await res.text()).toBe(json.patch);
      expect(await axeViolations(page)).toEqual([]);
      expect(browser.errors).toEqual([]);

      // `suture ui`: the earlier runs with their trends, and a run's own page
      const browse = await startDashboard({ runsDir: join(repo, '.suture', 'runs') });
      try {
        await page.goto(browse.url);
        await page.waitForSelector('table.runs tbody tr');
        expect(await page.locator('table.runs tbody tr').count()).toBe(1);
        expect(
          await page
            .locator('figure.trend svg')
            .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))),
        ).toEqual([
          expect.stringMatching(/^pass rate: last \d+\.\d%/),
          `heals: last ${json.totals.healed}, lowest ${json.totals.healed}, highest ${json.totals.healed} over 1 run(s)`,
          expect.stringMatching(/^cost: last \$0/),
        ]);
        await browser.screenshot('ui-runs');
        expect(await axeViolations(page)).toEqual([]);
        await page.getByRole('link', { name: json.runId }).click();
        await page.waitForSelector('#failures article.failure');
        expect(await page.locator('article.failure').count()).toBe(json.projects[0]!.failures.length);
        await page.getByRole('link', { name: 'results.xml' }).click();
        expect(await page.content()).toContain('<testsuites');
      } finally {
        await browse.close();
      }
    } finally {
      await dashboard.close();
      await browser.close();
    }
  });

  it('stops the run from its cancel button as Ctrl-C does, and leaves the tree as it was', async (ctx) => {
    const browser = await openBrowser(ctx, 'cancel');
    const { repo, root } = await shopRepo();
    const before = await snapshotTree(repo, ['.git/**', '.suture/**']);
    const controller = new AbortController();
    const dashboard = await startDashboard({
      runsDir: join(repo, '.suture', 'runs'),
      live: true,
      onCancel: () => controller.abort(),
    });
    try {
      const { page } = browser;
      await page.goto(dashboard.url);
      const started = Date.now();
      const running = gateShop({
        repo,
        root,
        fixer: shopFixer(),
        reporters: [dashboard.reporter],
        // never written: the suite hangs on its last test until the cancel stops it
        env: { SHOP_PAGE_GATE: join(repo, 'never') },
        signal: controller.signal,
      });
      await page.waitForFunction((sel) => Number(document.querySelector(sel)?.textContent ?? 0) >= 1, DONE);
      await page.getByRole('button', { name: 'Cancel run' }).click();
      const report = await running;
      await page.waitForSelector('[data-status=finished]');
      await browser.screenshot('live-cancelled');
      // a cancel is not an error: exit 130, and the run says it was cancelled
      expect(report).toMatchObject({ cancelled: true, exitCode: 130 });
      expect(report.error).toBeUndefined();
      // the last test waits 30 s for its file: the cancel ended the run well before
      expect(Date.now() - started).toBeLessThan(25_000);
      expect(await page.locator('.run-meta .badge').first().innerText()).toMatch(/^cancelled$/);
      expect(await page.getByRole('button', { name: 'Cancel run' }).isDisabled()).toBe(true);
      expect(await snapshotTree(repo, ['.git/**', '.suture/**', 'flaky-marker'])).toEqual(before);
    } finally {
      await dashboard.close();
      await browser.close();
    }
  });
});
