import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitepress';

const repo = 'https://github.com/suture-dev/suture';
const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(docsDir, '..');

/**
 * A relative link that leaves the site (a package's README, a source file, a worked example read
 * beside its code) points to the file on GitHub, so the same Markdown reads right on GitHub and
 * on the site. Links between pages stay as they are and VitePress checks them.
 */
function outsideSite(href: string, page: string): string | undefined {
  if (/^[a-z]+:|^#|^\//i.test(href)) return undefined;
  const [path = '', hash] = href.split('#');
  const target = resolve(docsDir, dirname(page), path);
  const within = (dir: string): boolean => !relative(dir, target).startsWith('..');
  if (within(docsDir) && !within(join(docsDir, 'examples'))) return undefined;
  const kind = existsSync(target) && statSync(target).isDirectory() ? 'tree' : 'blob';
  return `${repo}/${kind}/main/${relative(repoDir, target)}${hash ? `#${hash}` : ''}`;
}

export default defineConfig({
  title: 'suture',
  description: 'A self-healing test gate for polyglot repositories',
  cleanUrls: true,
  markdown: {
    config(md) {
      const open = md.renderer.rules.link_open;
      md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
        const token = tokens[idx]!;
        const href = token.attrGet('href');
        const away = href ? outsideSite(href, (env as { relativePath: string }).relativePath) : undefined;
        if (away) token.attrSet('href', away);
        return open ? open(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
      };
    },
  },
  // the worked examples are workspace packages whose READMEs are read on GitHub, beside their code
  srcExclude: ['examples/**', 'test/**', '**/node_modules/**'],
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Plugins', link: '/README' },
      { text: 'Architecture', link: '/architecture' },
    ],
    sidebar: [
      {
        text: 'Using suture',
        items: [
          { text: 'Getting started', link: '/guide/getting-started' },
          { text: 'Runners', link: '/guide/runners' },
          { text: 'Fixers', link: '/guide/fixers' },
          { text: 'Commands and reports', link: '/guide/commands' },
          { text: 'Generating tests', link: '/guide/generation' },
          { text: 'Coding agents', link: '/guide/agents' },
          { text: 'CI and Nx', link: '/guide/ci-and-nx' },
          { text: 'Monorepos with Nx', link: '/nx' },
          { text: 'Safety', link: '/guide/safety' },
          { text: 'Benchmarks', link: '/guide/benchmarks' },
          { text: 'Packages', link: '/guide/packages' },
        ],
      },
      {
        text: 'Writing plugins',
        items: [
          { text: 'Overview', link: '/README' },
          { text: 'Runner', link: '/runner' },
          { text: 'Analyzer', link: '/analyzer' },
          { text: 'Fixer', link: '/fixer' },
          { text: 'Reporter', link: '/reporter' },
          { text: 'Generator', link: '/generator' },
          { text: 'Compatibility', link: '/compatibility' },
        ],
      },
      {
        text: 'Project',
        items: [
          { text: 'Architecture', link: '/architecture' },
          { text: 'Developing suture', link: '/guide/development' },
        ],
      },
    ],
    socialLinks: [{ icon: 'github', link: repo }],
    search: { provider: 'local' },
  },
});
