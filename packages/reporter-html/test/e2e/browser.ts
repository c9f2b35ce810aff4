import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireToolchain, type SkippableTest } from '@suture/core/testing';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (apt-get install chromium); a browser downloaded by a library is never used. */
export const CHROMIUM = process.env.SUTURE_CHROMIUM ?? '/usr/bin/chromium';

/** The flags that keep chromium off the network it has no business with, and working as root. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far: a page that throws fails its test. */
  errors: string[];
  /** Where screenshots go; kept after the test for review. */
  shots: string;
  screenshot(name: string): Promise<string>;
  close(): Promise<void>;
}

/** Chromium with a fresh profile, or a skip that names the install command (a failure in CI). */
export async function openBrowser(test: SkippableTest, label: string): Promise<Browser> {
  requireToolchain(test, { command: 'chromium', install: 'apt-get install -y chromium' });
  const profile = await mkdtemp(join(tmpdir(), 'suture-chromium-'));
  const shots = await mkdtemp(join(tmpdir(), `suture-html-shots-${label}-`));
  await mkdir(shots, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    colorScheme: 'light',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return {
    context,
    page,
    errors,
    shots,
    async screenshot(name) {
      const path = join(shots, `${name}.png`);
      await page.screenshot({ path, fullPage: true });
      process.stdout.write(`screenshot: ${path}\n`);
      return path;
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * What axe-core finds wrong on the page (WCAG A and AA rules and best practices), one line per rule
 * with the elements. axe is evaluated through the DevTools protocol, which the page's CSP allows.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  const source = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run()).violations as Array<{ id: string; nodes: Array<{ target: unknown }> }>;
  });
  return violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}
