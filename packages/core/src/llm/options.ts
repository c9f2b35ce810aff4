import { z } from 'zod';

/** The `prompts` option every LLM fixer takes: template files that replace the shipped ones. */
export const PromptOverridesSchema = z
  .object({
    build: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Template for build, syntax, import and collection failures (path relative to the config file)',
      ),
    logic: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Template for assertion, exception, timeout and crash failures (path relative to the config file)',
      ),
  })
  .strict();
export type PromptOverrides = z.infer<typeof PromptOverridesSchema>;
