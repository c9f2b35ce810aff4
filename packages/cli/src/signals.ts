/**
 * SIGHUP (the terminal or ssh session that started suture closed) must stop a run the way
 * SIGTERM does: tests stopped, tree restored, lock and journal released. Node's default for
 * SIGHUP is to die on the spot, so it is routed to whatever handles SIGTERM at the time (the run
 * command's graceful stop); with no such handler, suture exits as a hung-up process would.
 */
export function forwardHangup(): void {
  process.on('SIGHUP', () => {
    const handlers = process.listeners('SIGTERM');
    if (handlers.length === 0) process.exit(129);
    for (const handler of handlers) handler('SIGHUP');
  });
}
