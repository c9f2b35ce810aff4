import type { Request as PageRequest } from 'playwright-core';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDashboard } from '../../src/index.js';
import { openBrowser } from './browser.js';

let runsDir: string;
beforeAll(async () => {
  runsDir = await mkdtemp(join(tmpdir(), 'suture-html-ended-'));
});
afterAll(() => rm(runsDir, { recursive: true, force: true }));

describe('the live page when suture goes away mid-run', () => {
  it('says the run ended and stops asking the server that is gone', async (ctx) => {
    const browser = await openBrowser(ctx, 'ended');
    const dashboard = await startDashboard({ runsDir, live: true });
    try {
      const { page } = browser;
      const streams: PageRequest[] = [];
      page.on('request', (r) => {
        if (r.url().includes('/api/events')) streams.push(r);
      });
      await page.goto(dashboard.url);
      await page.waitForSelector('html[data-rendered]');
      // the events a gate sends first, through the dashboard's own reporter
      const feed = dashboard.reporter;
      await feed.onRunStart!({
        runId: 'r1',
        root: runsDir,
        runDir: runsDir,
        mode: 'fix',
        projects: ['shop'],
      });
      await feed.onProjectStart!({ project: 'shop', runner: 'pytest' });
      await page.waitForSelector('[data-status=running]');
      expect(streams).toHaveLength(1);

      await dashboard.close();
      await page.waitForSelector('[data-status=ended]');
      expect(await page.locator('[role=status]').innerText()).toBe(
        'the run ended: suture is no longer running',
      );
      expect(await page.locator('.cancel').isDisabled()).toBe(true);
      // an EventSource left open would reconnect after the stream's retry of 1 s: three of them pass
      const seen = streams.length;
      await page.waitForTimeout(3500);
      expect(streams.length).toBe(seen);
      expect(browser.errors.filter((e) => !/ERR_CONNECTION_REFUSED|net::/.test(e))).toEqual([]);
    } finally {
      await dashboard.close();
      await browser.close();
    }
  });
});
