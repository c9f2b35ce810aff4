import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/** What reads one line of the event file: a zod schema fits. */
export interface EventSchema<E> {
  safeParse(value: unknown): { success: true; data: E } | { success: false };
}

export interface EventTail {
  /** Reads what was appended since the last read; call after the process ended for the rest. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Follows an event file (one JSON object a line) that the test tool's processes append to while
 * they run. Polling, not fs.watch: the file is appended by other processes on any filesystem the
 * work folder is on, and a tenth of a second is well inside every limit it serves. A line that is
 * not JSON or does not fit the schema is skipped: a separate process wrote it.
 */
export function tailEvents<E>(
  path: string,
  schema: EventSchema<E>,
  onEvent: (event: E) => void,
  intervalMs = 100,
): EventTail {
  let offset = 0;
  let partial = '';
  // a character split across two reads stays whole
  const decoder = new StringDecoder('utf8');
  let reading: Promise<void> = Promise.resolve();
  const read = async (): Promise<void> => {
    const handle = await open(path, 'r').catch(() => undefined);
    if (!handle) return;
    try {
      for (;;) {
        const buffer = Buffer.alloc(64 * 1024);
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset);
        if (bytesRead === 0) break;
        offset += bytesRead;
        partial += decoder.write(buffer.subarray(0, bytesRead));
      }
    } catch {
      // read again at the next tick
    } finally {
      await handle.close();
    }
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      const parsed = schema.safeParse(value);
      if (parsed.success) onEvent(parsed.data);
    }
  };
  const drain = (): Promise<void> => (reading = reading.then(read));
  const timer = setInterval(() => void drain(), intervalMs);
  return {
    drain,
    stop: async () => {
      clearInterval(timer);
      await drain();
    },
  };
}
