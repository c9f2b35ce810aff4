import ts from 'typescript';

/** The innermost node of `source` that holds `pos`. */
function nodeAt(source: ts.SourceFile, pos: number): ts.Node {
  let node: ts.Node = source;
  const visit = (n: ts.Node): void => {
    if (pos >= n.getStart(source) && pos < n.getEnd()) {
      node = n;
      ts.forEachChild(n, visit);
    }
  };
  ts.forEachChild(source, visit);
  return node;
}

/**
 * The value names visible at `pos` of `file`, in lookup order: those the file declares (locals,
 * parameters, its own functions and imports), then every other one in scope (globals, Node's).
 * TypeScript's spelling fix skips names shorter than three characters (`mss` for `ms`); these are
 * what suture's own closest-name rule chooses from instead.
 */
export function visibleNames(service: ts.LanguageService, file: string, pos: number): [string[], string[]] {
  const program = service.getProgram();
  const source = program?.getSourceFile(file);
  if (!program || !source) return [[], []];
  const symbols = program.getTypeChecker().getSymbolsInScope(nodeAt(source, pos), ts.SymbolFlags.Value);
  const own: string[] = [];
  const rest: string[] = [];
  for (const s of symbols) {
    const declared = s.declarations?.some((d) => d.getSourceFile() === source);
    (declared ? own : rest).push(s.name);
  }
  return [own, rest];
}
