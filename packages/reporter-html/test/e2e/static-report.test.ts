import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { GateReport } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import html from '../../src/index.js';
import { axeViolations, openBrowser, type Browser } from './browser.js';
import { ADD, DISCOUNT, FLAKY, cleanup, gateShop, shopFixer, shopRepo } from './support.js';

let report: GateReport;
let file: string;

beforeAll(async () => {
  const { repo, root } = await shopRepo();
  report = await gateShop({ repo, root, fixer: shopFixer(), reporters: [html()] });
  file = join(report.runDir!, 'report.html');
});
afterAll(cleanup);

async function open(browser: Browser): Promise<string[]> {
  const requests: string[] = [];
  browser.page.on('request', (r) => requests.push(r.url()));
  await browser.page.goto(pathToFileURL(file).href);
  await browser.page.waitForSelector('html[data-rendered]');
  return requests;
}

describe('report.html of a real pytest run', () => {
  it('the run it shows: a heal after a failed patch, a product bug and a flaky test', () => {
    const outcomes = Object.fromEntries(
      report.projects[0]!.failures.map((f) => [f.failure.tests[0], f.outcome]),
    );
    expect(outcomes).toEqual({ [ADD]: 'healed', [DISCOUNT]: 'product-bug', [FLAKY]: 'flaky' });
  });

  it('renders every failure group with its attempts and diffs, from disk and without the network', async (ctx) => {
    const browser = await openBrowser(ctx, 'static');
    try {
      const requests = await open(browser);
      const { page } = browser;
      const failures = report.projects.flatMap((p) => p.failures);
      const rendered = await page
        .locator('article.failure')
        .evaluateAll((els) =>
          els.map((e) => [
            (e as HTMLElement).dataset.outcome,
            e.querySelector('.failure-title')!.textContent,
          ]),
        );
      expect(rendered).toEqual(failures.map((f) => [f.outcome, f.failure.title]));

      const healed = page.locator('article.failure[data-outcome=healed]');
      const verdicts = await healed
        .locator('.attempt')
        .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.verdict));
      expect(verdicts).toEqual(['failed-validation', 'healed']);
      // the healing diff, drawn by diff2html with the new line highlighted as Python
      await healed.locator('.attempt-healed .diff').scrollIntoViewIfNeeded();
      const diff = healed.locator('.attempt-healed .d2h-file-wrapper');
      await diff.waitFor({ state: 'visible' });
      expect(await diff.locator('td.d2h-ins:not(.d2h-code-linenumber)').innerText()).toContain(
        'return a + b',
      );
      expect(await diff.locator('.d2h-ins .hljs-keyword').count()).toBeGreaterThan(0);
      expect(await healed.locator('.attempt-failed-validation .validation-failed').innerText()).toMatch(
        /tests still fail/,
      );
      // the product bug, with what was expected and what came out
      const bug = page.locator('article.failure[data-outcome=product-bug] .bug');
      expect(await bug.innerText()).toMatch(/discount takes 5% off instead of 10%[\s\S]*180[\s\S]*190\.0/);

      // totals as in report.json
      for (const key of ['tests', 'passed', 'failed', 'healed', 'bugs', 'flaky'] as const)
        expect(await page.locator(`[data-counter=${key}]`).first().innerText()).toBe(
          String(report.totals[key]),
        );
      // links to the files beside it, which exist
      const links = await page
        .locator('nav.artifacts a')
        .evaluateAll((els) => els.map((e) => e.getAttribute('href')));
      expect(links).toEqual(expect.arrayContaining(['report.json', 'results.xml', 'fixes.patch']));
      for (const link of links) await stat(join(report.runDir!, link!));

      await browser.screenshot('report-html');
      expect(browser.errors).toEqual([]);
      expect(requests.filter((u) => u !== pathToFileURL(file).href)).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('works from the keyboard and has no accessibility violation axe-core can find', async (ctx) => {
    const browser = await openBrowser(ctx, 'keyboard');
    try {
      await open(browser);
      const { page } = browser;
      const focused = (): Promise<string> =>
        page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return `${el?.tagName.toLowerCase()}#${el?.id ?? ''}:${el?.textContent?.trim().slice(0, 40) ?? ''}`;
        });
      await page.keyboard.press('Tab');
      expect(await focused()).toMatch(/^a#:Skip to the failures/);
      await page.keyboard.press('Enter');
      expect(await focused()).toMatch(/^section#failures:/);
      await page.keyboard.press('Tab');
      expect(await focused()).toMatch(/^button#:All \(3\)/);
      await page.keyboard.press('Tab');
      expect(await focused()).toMatch(/^button#:Healed \(1\)/);
      await page.keyboard.press('Enter');
      expect(await page.locator('article.failure').count()).toBe(1);
      expect(await page.locator('button[aria-pressed=true]').innerText()).toBe('Healed (1)');
      // the outline that shows where the focus is
      expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
      // on to the group's heading button, which closes and opens it
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      expect(await page.locator('article.failure').count()).toBe(3);
      let guard = 0;
      while (!(await focused()).startsWith('button#:healed') && guard++ < 20)
        await page.keyboard.press('Tab');
      const toggle = page.locator('article.failure[data-outcome=healed] button.disclosure');
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await page.keyboard.press('Enter');
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await page.locator('article.failure[data-outcome=healed] .failure-body').isHidden()).toBe(true);
      await page.keyboard.press('Space');
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      await browser.screenshot('report-keyboard');

      expect(await axeViolations(page)).toEqual([]);
      expect(browser.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
