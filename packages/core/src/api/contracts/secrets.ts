import { z } from 'zod';

function isRegExp(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

const RegExpSource = z
  .string()
  .min(1)
  .refine(isRegExp, 'a JavaScript regular expression (escape backslashes in JSON: "\\\\d")');

/**
 * What the repository holds that must never reach a model, a report or a log, beyond what suture
 * finds itself (secret-named environment variables, the values of `.env` files, well-known token
 * formats, values printed or assigned under a secret name).
 */
export const SecretsConfigSchema = z
  .object({
    names: z
      .array(RegExpSource)
      .default([])
      .describe(
        'Regular expressions of names whose values are secrets (environment variables, KEY=VALUE lines tests print, literals assigned in source), beyond PASSWORD, SECRET, TOKEN, *_KEY, CREDS, AUTH and the like',
      ),
    patterns: z
      .array(RegExpSource)
      .default([])
      .describe('Regular expressions of secret values, masked wherever they appear'),
    files: z
      .array(z.string().min(1))
      .default([])
      .describe(
        'Globs (relative to the config file) of files holding secrets, beyond .env*, *.pem, *.key and id_*: their KEY=VALUE values are masked, and an LLM fixer with file tools may not read them',
      ),
  })
  .strict();
export type SecretsConfig = z.infer<typeof SecretsConfigSchema>;
