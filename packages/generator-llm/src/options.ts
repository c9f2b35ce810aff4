import { z } from '@suture/core';

/** A fixer as the config names one: `"openai"` or `["openai", { "model": "gpt-4.1-mini" }]`. */
export const FixerSpecSchema = z.union([
  z.string().min(1),
  z.tuple([z.string().min(1), z.record(z.string(), z.unknown())]),
]);
export type FixerSpec = z.infer<typeof FixerSpecSchema>;

export const LlmGeneratorOptionsSchema = z
  .object({
    fixer: FixerSpecSchema.describe(
      'The LLM fixer that writes the tests, as the config names one: "claude", "openai", a package or a path, optionally with its options (["openai", { "model": "gpt-4.1-mini" }]). `suture generate tests --generator openai` fills it in from the config\'s fixers',
    ),
    dir: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Project-relative folder of the generated test files (default: a `gen` folder next to the example tests, else tests/gen or __tests__/gen)',
      ),
    examples: z
      .number()
      .int()
      .min(0)
      .max(5)
      .default(2)
      .describe(
        'Existing test files shown as examples of imports and style (those that use the target first)',
      ),
    callers: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(3)
      .describe('Files that use the target shown to the model (the lines around each use)'),
    maxTargets: z
      .number()
      .int()
      .positive()
      .default(8)
      .describe('Target files asked for per generation (one call and one test file each)'),
    prompt: z
      .string()
      .min(1)
      .optional()
      .describe(
        "A prompt template of your own (a path relative to the config file) instead of the language's shipped one",
      ),
  })
  .strict();
export type LlmGeneratorOptions = z.input<typeof LlmGeneratorOptionsSchema>;
export type ResolvedGeneratorOptions = z.infer<typeof LlmGeneratorOptionsSchema>;
