import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { z } from '@suture/core';
import { AssertionResultSchema, SuiteResultSchema } from './results.js';

const at = z.number();
const file = z.string();
/** The displayName of the Jest project the file runs in, when it has one. */
const project = z.string().optional();

/** One line of reporter/suture-jest-reporter.cjs: a separate process wrote it, so it is parsed. */
export const JestEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('run-start'), at, testTimeout: z.number().optional() }),
  z.object({ event: z.literal('file-start'), at, file, project }),
  z.object({
    event: z.literal('test-start'),
    at,
    file,
    project,
    fullName: z.string(),
    ancestorTitles: z.array(z.string()).default([]),
    title: z.string().optional(),
  }),
  z.object({ event: z.literal('test-end'), at, file, project, result: AssertionResultSchema }),
  z.object({ event: z.literal('file-end'), at, file, project, suite: SuiteResultSchema }),
  z.object({ event: z.literal('run-end'), at }),
  /** Written by reporter/jest-entry.cjs when Jest's runCLI has returned: the exit code it will exit with. */
  z.object({ event: z.literal('cli-end'), at, exitCode: z.number() }),
]);
export type JestEvent = z.infer<typeof JestEventSchema>;

export interface EventTail {
  /** Reads what was appended since the last read; call after the process ended for the rest. */
  drain(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Follows the reporter's event file while Jest runs. Polling, not fs.watch: the file is appended
 * by another process on any filesystem the work folder is on, and a tenth of a second is well
 * inside every limit it serves.
 */
export function tailEvents(path: string, onEvent: (event: JestEvent) => void, intervalMs = 100): EventTail {
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
      const parsed = JestEventSchema.safeParse(value);
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
