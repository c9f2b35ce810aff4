import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { z } from '@suture/core';

const at = z.number();
const file = z.string();
/** The name of the Vitest project the file runs in, when it has one. */
const project = z.string().optional();
const names = z.array(z.string()).min(1);
const line = z.number().int().positive().optional();

export const VitestErrorSchema = z.object({
  name: z.string().default('Error'),
  message: z.string().default(''),
  stack: z.string().optional(),
  frames: z
    .array(
      z.object({
        file: z.string(),
        line: z.number(),
        column: z.number(),
        method: z.string().default(''),
      }),
    )
    .optional(),
  diff: z.string().optional(),
  expected: z.string().optional(),
  actual: z.string().optional(),
});
export type VitestError = z.infer<typeof VitestErrorSchema>;
const errors = z.array(VitestErrorSchema).default([]);

/** One line of the reporter (or of the setup file in a worker): another process wrote it, so it is parsed. */
export const VitestEventSchema = z.discriminatedUnion('event', [
  z.object({ event: z.literal('run-start'), at, files: z.array(z.object({ file, project })) }),
  z.object({ event: z.literal('file-start'), at, file, project }),
  z.object({
    event: z.literal('collected'),
    at,
    file,
    project,
    tests: z.array(z.object({ names, line, mode: z.string().optional() })),
    errors,
  }),
  /** From the worker: the test's beforeEach hooks are about to run. */
  z.object({ event: z.literal('test-begin'), at, file, project, names, timeout: z.number().optional() }),
  z.object({
    event: z.literal('test-start'),
    at,
    file,
    project,
    names,
    line,
    timeout: z.number().optional(),
  }),
  z.object({
    event: z.literal('test-end'),
    at,
    file,
    project,
    names,
    line,
    state: z.string(),
    mode: z.string().optional(),
    durationMs: z.number().optional(),
    errors,
  }),
  z.object({ event: z.literal('file-end'), at, file, project, state: z.string(), errors }),
  z.object({
    event: z.literal('run-end'),
    at,
    reason: z.string().optional(),
    errors,
    files: z.array(z.object({ file, project, state: z.string(), errors })).default([]),
  }),
  z.object({ event: z.literal('cli-end'), at, exitCode: z.number() }),
]);
export type VitestEvent = z.infer<typeof VitestEventSchema>;

export interface EventTail {
  stop(): Promise<void>;
}

/**
 * Follows the event file while Vitest runs. Polling, not fs.watch: the file is appended by other
 * processes on any filesystem the work folder is on, and a tenth of a second is well inside every
 * limit it serves.
 */
export function tailEvents(path: string, onEvent: (event: VitestEvent) => void, intervalMs = 100): EventTail {
  let offset = 0;
  let partial = '';
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
    for (const text of lines) {
      if (!text.trim()) continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        continue;
      }
      const parsed = VitestEventSchema.safeParse(value);
      if (parsed.success) onEvent(parsed.data);
    }
  };
  const drain = (): Promise<void> => (reading = reading.then(read));
  const timer = setInterval(() => void drain(), intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await drain();
    },
  };
}
