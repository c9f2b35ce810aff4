import { UsageError } from '../exit.js';

type SutureMcp = typeof import('@suture/mcp');

/** @suture/mcp, which users install for agents; a usage error that says so when it is not. */
export async function loadMcp(what: string): Promise<SutureMcp> {
  try {
    return await import('@suture/mcp');
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
      throw new UsageError(`${what} needs @suture/mcp; install it with \`npm install -D @suture/mcp\``);
    throw error;
  }
}
