import { isAbsolute, posix, relative, sep } from 'node:path';

/**
 * A project-relative path as the repository names it (`web/__tests__/cart.test.js`): in a
 * monorepo, ten Jest projects each have an `index.test.js`, and only the repository-relative
 * path says which one failed. An absolute path, or a frame like `<frozen os>`, is kept as given.
 * `projectRoot` is absolute (the engine's) or repository-relative (a portable report's).
 */
export function repoPath(repoRoot: string, projectRoot: string, file: string): string {
  if (isAbsolute(file) || file.startsWith('<')) return file;
  // a portable report's project root is repository-relative already
  const inRepo = isAbsolute(projectRoot) ? relative(repoRoot, projectRoot) : projectRoot;
  const prefix = inRepo.split(sep).join('/');
  return posix.normalize(posix.join(prefix || '.', file));
}

/** `file:line` of a location, repository-relative. */
export function repoLocation(
  repoRoot: string,
  projectRoot: string,
  location: { file: string; line?: number | undefined },
): string {
  return `${repoPath(repoRoot, projectRoot, location.file)}${location.line ? `:${location.line}` : ''}`;
}
