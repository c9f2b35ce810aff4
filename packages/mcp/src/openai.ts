import { z } from '@suture/core';
import { SUTURE_TOOLS } from './tools.js';

type Json = Record<string, unknown>;

/** An OpenAI Chat Completions function tool (`tools: [...]`). */
export interface OpenAiFunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: Json; strict: true };
}

/** Keywords OpenAI's strict mode does not take; the zod schema still checks them when the call runs. */
const UNSUPPORTED = new Set(['$schema', 'default', 'minLength', 'maxLength', 'title', 'examples']);

function nullable(schema: Json): Json {
  if (Array.isArray(schema.anyOf))
    return { ...schema, anyOf: [...(schema.anyOf as Json[]), { type: 'null' }] };
  const out: Json = { ...schema };
  if (typeof schema.type === 'string') out.type = [schema.type, 'null'];
  if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
  return out;
}

/**
 * A JSON Schema as OpenAI's strict mode wants it: every object closed (`additionalProperties:
 * false`) with every property required, an optional property made nullable instead, and no
 * keyword strict mode refuses. `parseToolInput` reads a null back as "not given".
 */
export function strictJsonSchema(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (UNSUPPORTED.has(key)) continue;
    if (key === 'properties' && value && typeof value === 'object') {
      const required = new Set((schema.required as string[] | undefined) ?? []);
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, Json>).map(([name, prop]) => {
          const strict = strictJsonSchema(prop);
          return [name, required.has(name) ? strict : nullable(strict)];
        }),
      );
      continue;
    }
    if (key === 'required') continue;
    if (key === 'items' && value && typeof value === 'object') out.items = strictJsonSchema(value as Json);
    else if (key === 'anyOf' && Array.isArray(value)) out.anyOf = (value as Json[]).map(strictJsonSchema);
    else out[key] = value;
  }
  if (out.type === 'object' || out.properties) {
    out.additionalProperties = false;
    out.required = Object.keys((out.properties as Json | undefined) ?? {});
  }
  return out;
}

/** The JSON Schema of a tool's arguments as MCP lists it (the input side: defaults optional). */
export function inputJsonSchema(schema: z.ZodType): Json {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json;
}

/** suture's tools as OpenAI function definitions with strict JSON Schemas (`suture tools --format openai`). */
export function openAiTools(): OpenAiFunctionTool[] {
  return SUTURE_TOOLS.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: strictJsonSchema(inputJsonSchema(tool.input)),
      strict: true,
    },
  }));
}

/** The tools as an MCP `tools/list` names them, with input and output schemas (`suture tools --format mcp`). */
export function mcpToolList(): Array<{
  name: string;
  title: string;
  description: string;
  inputSchema: Json;
  outputSchema: Json;
}> {
  return SUTURE_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool.input),
    outputSchema: z.toJSONSchema(tool.output, { io: 'output', unrepresentable: 'any' }) as Json,
  }));
}
