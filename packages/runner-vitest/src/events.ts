import { z } from '@suture/core';

const at = z.number();
const file = z.string();
/** The name of the Vitest project the file runs in, when it has one. */
const project = z.string().optional();
const names = z.array(z.string()).min(1);
const line = z.number().int().positive().optional();
/** Vitest's id of the test's task: unique in its run, where two tests may share a full name. */
const id = z.string().optional();

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
    tests: z.array(z.object({ id, names, line, mode: z.string().optional() })),
    errors,
  }),
  /** From the worker: the test's beforeEach hooks are about to run. */
  z.object({ event: z.literal('test-begin'), at, file, project, id, names, timeout: z.number().optional() }),
  z.object({
    event: z.literal('test-start'),
    at,
    file,
    project,
    id,
    names,
    line,
    timeout: z.number().optional(),
  }),
  z.object({
    event: z.literal('test-end'),
    at,
    file,
    project,
    id,
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
