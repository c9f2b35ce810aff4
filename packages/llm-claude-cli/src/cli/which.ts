import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { delimiter, isAbsolute, join } from 'node:path';

export const INSTALL_HINT =
  'install it with `npm i -g @anthropic-ai/claude-code`, or set the fixer option "command" to its path';

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of `command`: itself when it is a path, else the first match on `PATH`.
 * Looked up before each call, so a missing CLI is a reason with an install command, not an ENOENT.
 */
export async function findExecutable(command: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (isAbsolute(command)) return (await isExecutable(command)) ? command : undefined;
  const exts = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of (env.PATH ?? env.Path ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const file = join(dir, command + ext);
      if (await isExecutable(file)) return file;
    }
  }
  return undefined;
}

export function notFound(command: string): string {
  return isAbsolute(command)
    ? `the claude CLI is not at ${command}: ${INSTALL_HINT}`
    : `the claude CLI (\`${command}\`) is not on PATH: ${INSTALL_HINT}`;
}
