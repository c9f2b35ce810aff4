// Writes config.schema.json from the zod schema. Run after `tsc`: `node scripts/gen-schema.mjs`.
import { writeFileSync } from 'node:fs';
import { configJsonSchemaText } from '../dist/internal.js';

writeFileSync(new URL('../config.schema.json', import.meta.url), configJsonSchemaText());
