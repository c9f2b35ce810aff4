import { join, relative } from 'node:path';
import { toPosix } from '../safety/paths.js';
import type { Workspace } from '../safety/workspace/types.js';
import type { ProposalView } from './validate.js';
import type { TreeWriter } from './writes.js';

/** A proposal's files as the workspace's view holds them (the heals so far applied). */
export function workspaceView(ws: Workspace): ProposalView {
  return { read: (file) => ws.read(file), resolve: (file) => ws.resolve(file) };
}

/**
 * Heals written to the workspace's view instead of the user's tree (repository-relative paths,
 * as the journal takes them). Undoing puts the earlier bytes back in the view; it is private, so
 * there is no one's edit to keep there.
 */
export function workspaceTree(ws: Workspace, repoRoot: string, projectRoot: string): TreeWriter {
  const inProject = (file: string): string => toPosix(relative(projectRoot, join(repoRoot, file)));
  return {
    write: (file, content) => ws.apply([{ file: inProject(file), content }]),
    async putBack(file, _expected, previous) {
      await ws.apply([{ file: inProject(file), content: previous }]);
      return undefined;
    },
  };
}
