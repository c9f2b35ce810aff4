import type { SyntaxNode, SyntaxTree } from '@suture/core/analysis';

/**
 * 1-based line of the first syntax error in a parsed file (an ERROR node, or a token the parser
 * had to assume, like a missing `)`), or undefined when it parses. The descent follows only the
 * subtrees that hold an error, so a large file costs its depth, not its size.
 */
export function syntaxErrorLine(tree: SyntaxTree): number | undefined {
  if (!tree.rootNode.hasError) return undefined;
  let node: SyntaxNode = tree.rootNode;
  for (;;) {
    if (node.type === 'ERROR' || node.isMissing) return node.startPosition.row + 1;
    const next: SyntaxNode | undefined = node.children.find((c) => c.hasError || c.isMissing);
    if (!next) return node.startPosition.row + 1;
    node = next;
  }
}
