/**
 * A caller's mistake in an agent tool call (an unknown session, a path outside the repository, an
 * empty change description). The message names the input key and what to send instead; the CLI
 * exits 2 on it and the MCP server answers it as a tool error the model can act on.
 */
export class AgentInputError extends Error {
  override name = 'AgentInputError';
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(`${key}: ${message}`);
  }
}

/** Another heal, run or apply holds the repository; nothing was started. */
export class RepositoryBusyError extends Error {
  override name = 'RepositoryBusyError';
}
