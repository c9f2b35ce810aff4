import { flat, similarity } from '../plan/names.js';
import { objectShape, type JsonSchema } from '../spec/json-schema.js';
import type { ApiModel } from '../spec/model.js';

/** Columns with a meaning of their own: the row's label, its operation, its expected status. */
export const RESERVED_COLUMNS = ['case', 'api', 'expected_status'] as const;

export interface ColumnMatch {
  operation: string;
  in: 'path' | 'query' | 'header' | 'body';
  name: string;
  schema: JsonSchema;
  how: 'exact' | 'similar';
}

export interface DataMapping {
  file: string;
  columns: Array<{ column: string; matches: ColumnMatch[] }>;
  /** Columns that match no parameter or field: reported, ignored. */
  ignored: string[];
  rows: number;
}

/**
 * Which CSV column fills which parameter: the same name once case and separators are ignored
 * (`delivery_date` is `deliveryDate`), else a close one (similarity 0.85 or more).
 */
export function mapColumns(
  model: ApiModel,
  header: readonly string[],
  file: string,
  rows: number,
): DataMapping {
  const columns: DataMapping['columns'] = [];
  const ignored: string[] = [];
  for (const column of header) {
    if ((RESERVED_COLUMNS as readonly string[]).includes(column.toLowerCase())) continue;
    const matches: ColumnMatch[] = [];
    for (const op of model.operations) {
      const fields: Array<Omit<ColumnMatch, 'operation' | 'how'>> = op.params
        .filter((p) => p.in !== 'cookie')
        .map((p) => ({ in: p.in as ColumnMatch['in'], name: p.name, schema: p.schema }));
      if (op.body)
        for (const [name, schema] of Object.entries(objectShape(op.body.schema).properties))
          fields.push({ in: 'body', name, schema });
      for (const f of fields) {
        if (flat(f.name) === flat(column)) matches.push({ operation: op.id, ...f, how: 'exact' });
        else if (similarity(f.name, column) >= 0.85) matches.push({ operation: op.id, ...f, how: 'similar' });
      }
    }
    if (matches.length > 0) columns.push({ column, matches });
    else ignored.push(column);
  }
  return { file, columns, ignored, rows };
}

/** A cell as the type its schema gives: `3` -> 3 for an integer, `true` -> true for a boolean. */
export function typedCell(value: string, schema: JsonSchema): unknown {
  const t = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  if ((t === 'integer' || t === 'number') && value.trim() !== '' && !Number.isNaN(Number(value)))
    return Number(value);
  if (t === 'boolean' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return value;
}
