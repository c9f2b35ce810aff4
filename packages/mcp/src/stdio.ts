import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createSutureServer, errorMessage, type SutureServerOptions } from './server.js';

/**
 * Serves suture over stdio until the client goes away (stdin ends) or the process is asked to
 * stop (SIGTERM, SIGINT). Either way the calls in progress are stopped first (their gates end,
 * their copies are removed, nothing is written), then the promise resolves with the reason.
 */
export async function serveStdio(
  options: SutureServerOptions,
  io: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream } = {},
): Promise<string> {
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  const { server, shutdown, ready } = createSutureServer(options);
  const transport = new StdioServerTransport(stdin as never, stdout as never);
  let finish!: (reason: string) => void;
  const ended = new Promise<string>((resolve) => (finish = resolve));
  let stopping: Promise<void> | undefined;
  const stop = (reason: string): void => {
    stopping ??= shutdown(reason).then(async () => {
      await server.close().catch(() => undefined);
      finish(reason);
    });
  };
  const onEnd = (): void => stop('the client closed the connection');
  const onSignal = (signal: NodeJS.Signals): void => stop(`${signal}`);
  // A client that died leaves a broken pipe: writing a progress notification fails with EPIPE,
  // which is the same news as the end of stdin, not a crash.
  const onBrokenPipe = (): void => stop('the client went away (broken pipe)');
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  stdout.on('error', onBrokenPipe);
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  transport.onclose = () => stop('the transport closed');
  await server.connect(transport);
  options.logger.info(`suture mcp: serving ${options.configFile ?? options.cwd ?? process.cwd()} on stdio`);
  ready.catch((error: unknown) => {
    options.logger.error(`suture mcp: could not load the tools: ${errorMessage(error)}`);
    stop('the tools could not be loaded');
  });
  try {
    return await ended;
  } finally {
    stdin.off('end', onEnd);
    stdin.off('close', onEnd);
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
}
