import { spawn } from 'node:child_process';
import { UsageError } from '../exit.js';

type ReporterHtml = typeof import('@suture/reporter-html');

/** @suture/reporter-html, which users install for the dashboard; a usage error that says so when it is not. */
export async function loadReporterHtml(what: string): Promise<ReporterHtml> {
  try {
    return await import('@suture/reporter-html');
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND')
      throw new UsageError(
        `${what} needs @suture/reporter-html; install it with \`npm install -D @suture/reporter-html\``,
      );
    throw error;
  }
}

/**
 * Opens the page in the user's browser: $BROWSER when set, else the platform's opener. A browser
 * that cannot be started is worth a line, not a failed run: the address is printed anyway.
 */
export function openInBrowser(
  url: string,
  stream: NodeJS.WritableStream,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const [command, args] = env.BROWSER
    ? [env.BROWSER, [url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', (error) =>
    stream.write(`suture: could not open a browser (${command}: ${error.message}); open the address above\n`),
  );
  child.unref();
}

/** Resolves on the next Ctrl-C (or SIGTERM): how a dashboard left up after its run is stopped. */
export function untilInterrupted(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const done = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve(signal);
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}
