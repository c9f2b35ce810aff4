import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { BootData } from './shared/live.js';
import { codeForScript, cssForStyle, escapeHtml, jsonForScript } from './embed.js';

interface Assets {
  script: string;
  style: string;
  /** CSP hash of the inline script: the only script the page may run. */
  scriptHash: string;
}

let cached: Assets | undefined;

/**
 * The built page (dist/client, made by `vite build`). Resolved from the package root so that the
 * sources under src/ and the compiled files under dist/ find the same files.
 */
function assets(): Assets {
  if (cached) return cached;
  const dir = new URL('../dist/client/', import.meta.url);
  let js: string;
  let css: string;
  try {
    js = readFileSync(new URL('app.js', dir), 'utf8');
    css = readFileSync(new URL('app.css', dir), 'utf8');
  } catch (error) {
    throw new Error(
      `@suture/reporter-html: the page assets are missing from ${dir.pathname} (${(error as Error).message}); reinstall the package, or run \`npm run build -w @suture/reporter-html\` in a checkout`,
    );
  }
  const script = codeForScript(js);
  cached = {
    script,
    style: cssForStyle(css),
    scriptHash: `sha256-${createHash('sha256').update(script).digest('base64')}`,
  };
  return cached;
}

export interface PageOptions {
  title: string;
  /** Served pages talk to their server (events, runs, cancel); a report.html talks to nothing. */
  served: boolean;
}

/** A whole HTML document: the page's script and style inline, `boot` embedded as JSON. */
export function renderPage(boot: BootData, options: PageOptions): string {
  const { script, style, scriptHash } = assets();
  const csp = [
    "default-src 'none'",
    `script-src '${scriptHash}'`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    options.served ? "connect-src 'self'" : '',
    "base-uri 'none'",
    "form-action 'none'",
  ]
    .filter(Boolean)
    .join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="@suture/reporter-html">
<title>${escapeHtml(options.title)}</title>
<style>${style}</style>
</head>
<body>
<div id="app"></div>
<script type="application/json" id="suture-data">${jsonForScript(boot)}</script>
<script>${script}</script>
</body>
</html>
`;
}
