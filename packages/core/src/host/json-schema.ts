import { z } from 'zod';
import { ConfigSchema } from '../api/contracts/config.js';

/** The JSON Schema of suture.config.json, generated from the zod schema (input side: defaults optional). */
export function configJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(ConfigSchema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return {
    ...schema,
    title: 'suture configuration',
    description: 'Configuration of the suture self-healing test gate (suture.config.json)',
  };
}

export function configJsonSchemaText(): string {
  return `${JSON.stringify(configJsonSchema(), null, 2)}\n`;
}
