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
