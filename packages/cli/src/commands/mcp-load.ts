import { UsageError } from '../exit.js';

type SutureMcp = typeof import('@suture/mcp');
type SutureMcpStdio = typeof import('@suture/mcp/stdio');

/** @suture/mcp, which users install for agents; a usage error that says so when it is not. */
export async function loadMcp(what: string): Promise<SutureMcp> {
  return missingMcp(what, () => import('@suture/mcp'));
}

/**
 * @suture/mcp's stdio server alone, without the tool table and suture's engine it loads only
 * after a client's `initialize` has been answered.
 */
export async function loadMcpStdio(what: string): Promise<SutureMcpStdio> {
  return missingMcp(what, () => import('@suture/mcp/stdio'));
}

async function missingMcp<T>(what: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
      throw new UsageError(`${what} needs @suture/mcp; install it with \`npm install -D @suture/mcp\``);
    throw error;
  }
}
