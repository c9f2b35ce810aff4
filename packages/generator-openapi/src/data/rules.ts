export interface Rule {
  /** `R1`, from the text when it names one, else by position. */
  id: string;
  text: string;
}

/**
 * The rules of a requirements document: each list item (`-`, `*`, `1.`) is one, with its wrapped
 * lines; a bold lead such as `**R1 Stock.**` gives its id. A document without a list is one rule
 * per paragraph.
 */
export function parseRules(text: string): Rule[] {
  const items: string[] = [];
  let current: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      if (current !== undefined) items.push(current);
      current = item[1]!;
    } else if (current !== undefined && /^\s+\S/.test(line)) current += ` ${line.trim()}`;
    else if (current !== undefined) {
      items.push(current);
      current = undefined;
    }
  }
  if (current !== undefined) items.push(current);
  const source =
    items.length > 0
      ? items
      : text
          .split(/\n\s*\n/)
          .map((p) => p.replace(/\s+/g, ' ').trim())
          .filter((p) => p && !p.startsWith('#'));
  return source.map((raw, i) => {
    const id = /^\*\*\s*(R\d+)\b/i.exec(raw)?.[1]?.toUpperCase() ?? `R${i + 1}`;
    return { id, text: raw.replace(/\*\*/g, '').replace(/`/g, '').replace(/\s+/g, ' ').trim() };
  });
}
