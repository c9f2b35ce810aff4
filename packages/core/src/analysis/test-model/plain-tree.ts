import type Parser from 'tree-sitter';

/**
 * A node of a test file's syntax tree, copied out of tree-sitter into plain objects once per parse:
 * the readers walk a tree many times, and each step through the native binding's nodes costs tens
 * of microseconds (a 2,000-line test file would take seconds).
 */
export class Node {
  parent: Node | null = null;
  readonly children: Node[] = [];
  private named: Node[] | undefined;

  constructor(
    readonly id: number,
    readonly type: string,
    readonly isNamed: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
    /** The field this node is in its parent, if any (`condition`, `body`, ...). */
    readonly field: string | undefined,
    private readonly source: string,
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get namedChildren(): Node[] {
    this.named ??= this.children.filter((c) => c.isNamed);
    return this.named;
  }

  get namedChildCount(): number {
    return this.namedChildren.length;
  }

  get nextNamedSibling(): Node | null {
    const siblings = this.parent?.namedChildren ?? [];
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }

  childForFieldName(name: string): Node | null {
    return this.children.find((c) => c.field === name) ?? null;
  }

  childrenForFieldName(name: string): Node[] {
    return this.children.filter((c) => c.field === name);
  }

  descendantsOfType(types: string | readonly string[]): Node[] {
    const wanted = new Set(typeof types === 'string' ? [types] : types);
    const out: Node[] = [];
    const stack = [...this.children].reverse();
    for (let n = stack.pop(); n; n = stack.pop()) {
      if (wanted.has(n.type)) out.push(n);
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
    return out;
  }
}

/** The tree as plain nodes, read with one cursor walk (a loop: deep expressions need no deep stack). */
export function plainTree(tree: Parser.Tree, source: string): Node {
  const cursor = tree.walk();
  let ids = 0;
  const make = (): Node =>
    new Node(
      ids++,
      cursor.nodeType,
      cursor.nodeIsNamed,
      cursor.startIndex,
      cursor.endIndex,
      cursor.currentFieldName ?? undefined,
      source,
    );
  const root = make();
  let at = root;
  for (;;) {
    if (cursor.gotoFirstChild()) {
      const child = make();
      child.parent = at;
      at.children.push(child);
      at = child;
      continue;
    }
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return root;
      at = at.parent!;
    }
    const sibling = make();
    sibling.parent = at.parent;
    at.parent!.children.push(sibling);
    at = sibling;
  }
}
