// Packs the workspace packages with `npm pack` and installs tarballs into a folder outside the
// workspace, as a user's project gets them. Shared by the install test and bench/install.mjs.
import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../../../../../', import.meta.url));

/** Folder names under packages/, every one published. */
export const PACKAGES = [
  'core',
  'cli',
  'runner-pytest',
  'runner-ctest',
  'runner-jest',
  'fixer-hints',
  'llm-claude-cli',
  'llm-openai',
];

/** What the README tells a Python user to install (plus core, which they depend on). */
export const PYTHON_SET = ['core', 'cli', 'runner-pytest', 'fixer-hints'];

/** The language sets of the README's install lines, each with the Python line's packages. */
export const SETS = {
  python: PYTHON_SET,
  cpp: [...PYTHON_SET, 'runner-ctest'],
  js: [...PYTHON_SET, 'runner-jest'],
};

/**
 * What npm warned about during an install, by kind: `peer` (ERESOLVE and peer-dependency
 * conflicts), `scripts` (install scripts not covered by the project's allowScripts), `other`.
 * Each warning counts once, however many lines npm gave it.
 */
export function npmWarnings(stderr) {
  const found = { peer: 0, scripts: 0, other: 0 };
  let inPeer = false;
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('npm warn')) {
      inPeer = false;
      continue;
    }
    const text = line.slice('npm warn'.length).trim();
    if (/^ERESOLVE\b/.test(text)) {
      found.peer++;
      inPeer = true;
    } else if (/^install-scripts\b/.test(text)) {
      if (/have install scripts not yet covered/.test(text)) found.scripts++;
    } else if (!inPeer && text !== '') found.other++;
  }
  return found;
}

/** Every installed copy of a package in `app`'s node_modules, as `path@version`, from `npm ls`. */
export async function installedCopies(app, name) {
  const r = await npm(['ls', name, '--all', '--parseable', '--long'], app);
  return [
    ...new Set(
      r.stdout
        .split('\n')
        .filter((l) => l.includes(`node_modules/${name}:${name}@`))
        .map((l) => {
          const [path, id] = l.split(':');
          return `${path.slice(app.length + 1)}@${id.slice(name.length + 1)}`;
        }),
    ),
  ];
}

/**
 * The environment without the npm_* variables of an enclosing `npm test` or `npm run` (its
 * prefix, its config): a user's shell has none, and npm would read them as settings. Nor the
 * colour switches a task runner sets (nx sets FORCE_COLOR): output is read as plain text.
 */
export function userEnv(extra = {}) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'FORCE_COLOR' && k !== 'NO_COLOR'),
  );
  return { ...env, ...extra };
}

function npm(args, cwd) {
  return new Promise((resolve) => {
    const started = performance.now();
    execFile(
      'npm',
      args,
      { cwd, env: userEnv({ CI: '1' }), maxBuffer: 64 * 1024 * 1024, timeout: 900_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          stdout,
          stderr,
          ms: performance.now() - started,
        }),
    );
  });
}

/**
 * `npm pack` of every package into `destination` (their dist must be built). Returns, per package,
 * the folder name, the tarball's path and npm's listing of its files.
 */
export async function packAll(destination) {
  const args = ['pack', '--json', '--pack-destination', destination];
  for (const dir of PACKAGES) args.push('-w', `packages/${dir}`);
  const r = await npm(args, REPO);
  if (r.code !== 0) throw new Error(`npm pack failed (${r.code}):\n${r.stderr}`);
  const listed = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')));
  return PACKAGES.map((dir) => {
    const pkg = listed.find((p) => p.name === `@suture/${dir}`);
    if (!pkg) throw new Error(`npm pack listed no @suture/${dir}`);
    return {
      dir,
      name: pkg.name,
      tarball: `${destination}/${pkg.filename}`,
      files: pkg.files.map((f) => f.path),
      size: pkg.size,
      unpackedSize: pkg.unpackedSize,
    };
  });
}

/**
 * `npm install -D` of the given tarballs into `app` (a folder with a package.json), resolving the
 * rest from the registry (the cache first). Returns npm's exit code, output and wall time.
 * `ignoreScripts` skips the install scripts (the compile of tree-sitter's binding where its
 * prebuilt one does not load), for a check of what npm resolved, not of what runs.
 */
export function installTarballs(app, tarballs, { ignoreScripts = false } = {}) {
  return npm(
    [
      'install',
      '-D',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      ...(ignoreScripts ? ['--ignore-scripts'] : []),
      ...tarballs,
    ],
    app,
  );
}

/** Disk use of a folder in KiB, as `du -sk` counts it. */
export function diskKiB(dir) {
  return Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]);
}

/** The text of one file inside a tarball. */
export function tarballFile(tarball, path) {
  return execFileSync('tar', ['-xOzf', tarball, `package/${path}`], { encoding: 'utf8' });
}
