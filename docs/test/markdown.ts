import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SITE = 'https://github.com/suture-dev/suture/';

/** The Markdown a reader meets: the root README, the guide and the packages' READMEs. */
export function markdownFiles(): string[] {
  const found = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(REPO, dir), { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.') || entry.name === 'dist') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  for (const pkg of readdirSync(join(REPO, 'packages')))
    if (existsSync(join(REPO, 'packages', pkg, 'README.md'))) found.push(join('packages', pkg, 'README.md'));
  return found;
}

/** The text outside fenced code blocks, so that a link shown as code is not taken for one. */
export function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** Fenced code blocks with their language. */
export function codeBlocks(text: string): Array<{ lang: string; code: string }> {
  return [...text.matchAll(/^```(\w*)[^\n]*\n([\s\S]*?)^```\s*$/gm)].map((m) => ({
    lang: m[1]!,
    code: m[2]!,
  }));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

export function anchors(file: string): Set<string> {
  const text = readFileSync(join(REPO, file), 'utf8');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(text).matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

export interface Link {
  file: string;
  href: string;
  /** The repository-relative path it points to, and the anchor, when it points into the repository. */
  target?: { path: string; anchor?: string };
}

/** Every Markdown link of a file that points into this repository (relative, or to its GitHub tree). */
export function links(file: string, source = readFileSync(join(REPO, file), 'utf8')): Link[] {
  const text = prose(source);
  const out: Link[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const href = m[1]!;
    const [path = '', anchor] = href.split('#');
    if (href.startsWith(SITE)) {
      const rest = /^(?:blob|tree)\/main\/(.*)$/.exec(href.slice(SITE.length).split('#')[0]!);
      out.push({
        file,
        href,
        ...(rest ? { target: { path: rest[1]!, ...(anchor ? { anchor } : {}) } } : {}),
      });
    } else if (!/^[a-z]+:/i.test(href) && !href.startsWith('/')) {
      const resolved = path === '' ? file : relative(REPO, resolve(REPO, dirname(file), path));
      out.push({ file, href, target: { path: resolved, ...(anchor ? { anchor } : {}) } });
    } else if (href.startsWith('/') && file.startsWith('docs/')) {
      // a site-absolute link of the guide: /guide/runners is docs/guide/runners.md
      const page = path.replace(/^\//, '').replace(/\.html$/, '');
      out.push({ file, href, target: { path: `docs/${page}.md`, ...(anchor ? { anchor } : {}) } });
    }
  }
  return out;
}
