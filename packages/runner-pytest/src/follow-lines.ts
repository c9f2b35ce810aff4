import { open, type FileHandle } from 'node:fs/promises';

export interface Follower {
  /** Reads what is left, hands over a last unterminated line, and closes the file. */
  stop(): Promise<void>;
}

/**
 * Follows a file that another process appends lines to, calling `onLine` with each complete
 * line as it lands (the file may not exist yet). Lines are split on bytes, so a character cut
 * between two reads stays whole. A throw from `onLine` does not stop the following; the first
 * one is thrown again by `stop`.
 */
export function followLines(path: string, onLine: (line: string) => void, everyMs = 100): Follower {
  let handle: FileHandle | undefined;
  let offset = 0;
  let partial = Buffer.alloc(0);
  let failure: unknown;
  const deliver = (line: Buffer): void => {
    try {
      onLine(line.toString('utf8'));
    } catch (error) {
      failure ??= error;
    }
  };
  const readMore = async (): Promise<void> => {
    handle ??= await open(path, 'r').catch(() => undefined);
    if (!handle) return;
    const chunk = Buffer.alloc(64 * 1024);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
      if (bytesRead === 0) return;
      offset += bytesRead;
      let data = Buffer.concat([partial, chunk.subarray(0, bytesRead)]);
      for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10)) {
        deliver(data.subarray(0, nl));
        data = data.subarray(nl + 1);
      }
      partial = Buffer.from(data);
    }
  };
  let reading: Promise<void> = Promise.resolve();
  const tick = (): void => {
    reading = reading.then(readMore).catch((error: unknown) => {
      failure ??= error;
    });
  };
  const timer = setInterval(tick, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      tick();
      await reading;
      if (partial.length > 0) deliver(partial);
      partial = Buffer.alloc(0);
      await handle?.close();
      if (failure !== undefined) throw failure;
    },
  };
}
