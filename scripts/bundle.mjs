#!/usr/bin/env node
// Bundles a package's compiled entry points (its `exports`) in place, after `tsc` has written
// dist/. Node's ES module loader costs about a millisecond per module on a small machine, and a
// `suture run` used to load some 300 of them (core's and zod's) before it ran a test; bundled, the
// same code loads in a handful of files. Dependencies stay external except those named with
// `--inline` (a dependency whose own modules are many and always loaded). The declarations tsc
// wrote stay; the per-module JavaScript the bundles replace is removed, so nothing can load a
// second copy of the package's state through a deep path.
//
// `--zod-locales <name>` keeps one of an inlined zod's locales (zod's own default is "en"): the
// other sixty-odd are only error messages in other languages, yet a third of the bundle, and
// compiling them cost every start-up some 15-20 ms. Their names stay, each a function that says
// to take that locale from zod itself.
//
//   node ../../scripts/bundle.mjs [--inline <package>]... [--entry <file under dist/>]... [--zod-locales <name>]
import { readFileSync, readdirSync, rmSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { build } from 'rolldown';

const args = process.argv.slice(2);
const inline = new Set();
/** Entries the exports do not name (a command's bin), as paths under dist/. */
const extra = [];
let zodLocale;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--inline' && args[i + 1]) inline.add(args[++i]);
  else if (args[i] === '--zod-locales' && args[i + 1]) zodLocale = args[++i];
  else if (args[i] === '--entry' && args[i + 1]) extra.push(`./dist/${args[++i]}`);
  else {
    console.error(
      `bundle: unknown argument "${args[i]}"; usage: bundle.mjs [--inline <package>]... [--entry <file under dist/>]... [--zod-locales <name>]`,
    );
    process.exit(2);
  }
}

const root = process.cwd();
const dist = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Each export's compiled file under dist/, by its path there without the extension. */
const input = {};
for (const target of [...Object.values(pkg.exports ?? {}), ...extra]) {
  const file = typeof target === 'string' ? target : target?.import;
  if (typeof file !== 'string' || !file.startsWith('./dist/') || !file.endsWith('.js')) continue;
  input[file.slice('./dist/'.length, -'.js'.length)] = resolve(root, file);
}
if (Object.keys(input).length === 0) {
  console.error(`bundle: ${pkg.name} exports no compiled .js file under dist/; nothing to bundle`);
  process.exit(2);
}

const builtins = new Set(builtinModules);
const packageOf = (id) =>
  (id.startsWith('@') ? id.split('/').slice(0, 2) : id.split('/').slice(0, 1)).join('/');
const external = (id) => {
  if (id.startsWith('.') || id.startsWith('/') || id.startsWith('\0')) return false;
  if (id.startsWith('node:') || builtins.has(id)) return true;
  return !inline.has(packageOf(id));
};

/** zod's locales module, replaced by one that holds `zodLocale` and names the others. */
function zodLocales() {
  const index = join(
    dirname(createRequire(join(root, 'package.json')).resolve('zod/v4/locales')),
    'index.js',
  );
  const names = [...readFileSync(index, 'utf8').matchAll(/export \{ default as (\w+) \}/g)].map((m) => m[1]);
  if (!names.includes(zodLocale)) {
    console.error(`bundle: zod has no locale "${zodLocale}"; it has ${names.join(', ')}`);
    process.exit(2);
  }
  const id = '\0zod-locales';
  const code = [
    `export { default as ${zodLocale} } from ${JSON.stringify(join(dirname(index), `${zodLocale}.js`))};`,
    'const elsewhere = (name) => () => {',
    `  throw new Error(\`\${${JSON.stringify(pkg.name)}} bundles zod with its "${zodLocale}" messages only: import the "\${name}" locale from zod itself (import { \${name} } from "zod/locales")\`);`,
    '};',
    ...names
      .filter((n) => n !== zodLocale)
      .map((n) => `export const ${n} = elsewhere(${JSON.stringify(n)});`),
  ].join('\n');
  return {
    name: 'zod-locales',
    resolveId(source, importer) {
      if (importer && source.endsWith('locales/index.js') && resolve(dirname(importer), source) === index)
        return id;
      return undefined;
    },
    load: (which) => (which === id ? code : undefined),
  };
}

const { output } = await build({
  input,
  platform: 'node',
  external,
  plugins: zodLocale ? [zodLocales()] : [],
  logLevel: 'warn',
  output: {
    dir: dist,
    format: 'esm',
    entryFileNames: '[name].js',
    // beside the entries at the top of dist/, so a module's `new URL('../x', import.meta.url)`
    // names the same file wherever the bundler put it
    chunkFileNames: 'chunk-[name]-[hash].js',
    sourcemap: false,
  },
});

const written = new Set(output.map((o) => join(dist, o.fileName)));
let removed = 0;
const sweep = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) sweep(path);
    else if (/\.js(\.map)?$/.test(entry.name) && !written.has(path)) {
      rmSync(path);
      removed++;
    }
  }
};
sweep(dist);
console.log(
  `bundle: ${pkg.name}: ${Object.keys(input).length} entries in ${written.size} files (${[...written]
    .map((f) => relative(dist, f))
    .filter((f) => !f.startsWith('chunk-'))
    .join(
      ', ',
    )}), ${removed} compiled modules replaced${inline.size ? `, ${[...inline].join(', ')} inlined` : ''}${zodLocale ? `, zod's "${zodLocale}" locale only` : ''}`,
);
