import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LiveMessage } from '../shared/live.js';

/** A page that loses a large history must still be able to catch up, so all of it is kept. */
const HEARTBEAT_MS = 15_000;

/**
 * Server-sent events of one run. Every message is numbered and kept: a page that connects late
 * (or reconnects, sending Last-Event-ID) first gets what it missed, in order, then the rest live.
 */
export class EventHub {
  private readonly frames: string[] = [];
  private readonly clients = new Set<ServerResponse>();
  private ended = false;

  publish(message: LiveMessage): void {
    const id = this.frames.length + 1;
    const frame = `id: ${id}\ndata: ${JSON.stringify(message)}\n\n`;
    this.frames.push(frame);
    for (const res of this.clients) res.write(frame);
    if (message.type === 'run-end') {
      // nothing follows the report: ending the streams tells every client the run is over
      this.ended = true;
      this.end();
    }
  }

  get size(): number {
    return this.frames.length;
  }

  attach(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    const last = Number(req.headers['last-event-id'] ?? 0);
    const from = Number.isInteger(last) && last > 0 ? last : 0;
    res.write(`retry: 1000\n\n${this.frames.slice(from).join('')}`);
    if (this.ended) {
      res.end();
      return;
    }
    this.clients.add(res);
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    req.on('close', () => {
      clearInterval(heartbeat);
      this.clients.delete(res);
    });
  }

  /** Ends every stream, flushing what was written: the pages keep what they got. */
  end(): void {
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}
