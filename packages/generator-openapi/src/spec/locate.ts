import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';

/** A YAML or JSON text parsed with the positions of its nodes, to point at a line from a JSON pointer. */
export interface LocatedText {
  doc: Document;
  lines: LineCounter;
}

export function parseLocated(text: string): LocatedText {
  const lines = new LineCounter();
  // JSON is YAML 1.2, so one parser gives both formats their line numbers.
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false });
  return { doc, lines };
}

/** `/paths/~1users/get` -> ['paths', '/users', 'get'] (RFC 6901). */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .replace(/^\//, '')
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * The 1-based line of the node at `pointer`, or of the deepest node on its way that exists (an
 * error about a missing key points at the object that lacks it). A key's line is its own.
 */
export function lineOf(located: LocatedText, pointer: string): number {
  let node: unknown = located.doc.contents;
  let offset = (node as { range?: [number] } | null)?.range?.[0] ?? 0;
  for (const segment of pointerSegments(pointer)) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === segment);
      if (!pair) break;
      offset = (pair.key as { range?: [number] }).range?.[0] ?? offset;
      node = pair.value;
      continue;
    }
    if (isSeq(node)) {
      const item = node.items[Number(segment)];
      if (!item) break;
      offset = (item as { range?: [number] }).range?.[0] ?? offset;
      node = item;
      continue;
    }
    break;
  }
  return located.lines.linePos(offset).line;
}

/** Every `$ref` value in the text with its line, to say where a reference that fails was written. */
export function refLines(located: LocatedText): Map<string, number> {
  const found = new Map<string, number>();
  const walk = (node: unknown): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isScalar(pair.key) && pair.key.value === '$ref' && isScalar(pair.value)) {
          const ref = String(pair.value.value);
          if (!found.has(ref)) found.set(ref, located.lines.linePos((pair.key.range ?? [0])[0]).line);
        } else walk(pair.value);
      }
    } else if (isSeq(node)) for (const item of node.items) walk(item);
  };
  walk(located.doc.contents);
  return found;
}
