// An earlier commit of suture, built outside the repository, so that a benchmark can run the
// same scenario through its CLI and compare: the commit's files from `git archive`, the
// workspace's node_modules linked (its own packages linked to the commit's), each package built
// with the workspace's TypeScript. Kept under the system's temp folder and reused.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Packages in the order their dependencies build first. */
async function buildOrder(root) {
  const dirs = (await readdir(join(root, 'packages'))).filter((d) =>
    existsSync(join(root, 'packages', d, 'package.json')),
  );
  const pkgs = new Map();
  for (const dir of dirs) {
    const pkg = JSON.parse(await readFile(join(root, 'packages', dir, 'package.json'), 'utf8'));
    const deps = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies });
    pkgs.set(pkg.name, { dir, deps: deps.filter((d) => d.startsWith('@suture/')) });
  }
  const order = [];
  const visit = (name) => {
    const pkg = pkgs.get(name);
    if (!pkg || order.includes(pkg)) return;
    for (const dep of pkg.deps) if (dep !== name) visit(dep);
    if (!order.includes(pkg)) order.push(pkg);
  };
  for (const name of pkgs.keys()) visit(name);
  return order.map((p) => p.dir);
}

/** The root of `commit` built, ready for `node <root>/packages/cli/dist/bin.js`. */
export async function checkoutAt(repo, commit) {
  const sha = execFileSync('git', ['rev-parse', `${commit}^{commit}`], {
    cwd: repo,
    encoding: 'utf8',
  }).trim();
  const root = join(tmpdir(), `suture-at-${sha.slice(0, 12)}`);
  if (existsSync(join(root, '.built'))) return root;
  await rm(root, { recursive: true, force: true });
  await mkdir(root, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${sha} | tar -x -C "${root}"`], { cwd: repo });
  const modules = join(root, 'node_modules');
  await mkdir(join(modules, '@suture'), { recursive: true });
  for (const entry of await readdir(join(repo, 'node_modules'))) {
    if (entry === '@suture' || entry === '.package-lock.json') continue;
    await symlink(join(repo, 'node_modules', entry), join(modules, entry));
  }
  const order = await buildOrder(root);
  for (const dir of order) {
    const pkg = JSON.parse(await readFile(join(root, 'packages', dir, 'package.json'), 'utf8'));
    await symlink(join(root, 'packages', dir), join(modules, pkg.name));
    // a package's own nested dependencies (other majors than the root's)
    const nested = join(repo, 'packages', dir, 'node_modules');
    if (existsSync(nested)) await symlink(nested, join(root, 'packages', dir, 'node_modules'));
  }
  const tsc = join(repo, 'node_modules', 'typescript', 'bin', 'tsc');
  for (const dir of order) {
    const config = join(root, 'packages', dir, 'tsconfig.build.json');
    if (!existsSync(config)) continue;
    process.stderr.write(`building ${sha.slice(0, 7)} packages/${dir}\n`);
    execFileSync(process.execPath, [tsc, '-p', config], {
      cwd: join(root, 'packages', dir),
      stdio: 'inherit',
    });
  }
  await writeFile(join(root, '.built'), `${sha}\n`);
  return root;
}
