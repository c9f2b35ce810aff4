import { tamperingFrom, type Finding, type SyntaxNode, type SyntaxTree } from '@suture/core/analysis';
import { stringValue } from '../go-source.js';
import { isGoTestFile } from './test-files.js';

/** `go test`'s own result lines: printed by code, they would read as results the code did not earn. */
const RESULT_LINE = /^(?:--- (?:PASS|FAIL|SKIP)|=== (?:RUN|PAUSE|CONT))|^(?:PASS|ok\s)|\{"Action":/;
/** Calls that end the test binary or the test's goroutine before the test reports. */
const EXITS = new Set(['os.Exit', 'syscall.Exit', 'runtime.Goexit', 'unix.Exit']);

function descend(n: SyntaxNode, visit: (n: SyntaxNode) => void): void {
  const stack = [n];
  for (let x = stack.pop(); x; x = stack.pop()) {
    visit(x);
    for (let i = x.namedChildCount - 1; i >= 0; i--) stack.push(x.namedChild(i)!);
  }
}

const lineOf = (n: SyntaxNode): number => n.startPosition.row + 1;
const statementOf = (n: SyntaxNode): string => {
  let s: SyntaxNode | null = n;
  while (s?.parent && s.parent.type !== 'statement_list' && s.parent.type !== 'source_file') s = s.parent;
  return (s ?? n).text.replace(/\s+/g, ' ').slice(0, 200);
};

/** What one version of a Go file does that lets it report its own success or end the run early. */
function findings(tree: SyntaxTree, test: boolean): Finding[] {
  const out: Finding[] = [];
  const add = (n: SyntaxNode, key: string, reason: string): void => {
    out.push({ key, line: lineOf(n), reason, context: statementOf(n) });
  };
  for (const c of tree.rootNode.namedChildren.filter((x) => x.type === 'comment')) {
    const text = c.text;
    if (/^\/\/go:build\b|^\/\/\s*\+build\b/.test(text) && test)
      add(
        c,
        `build ${text}`,
        `a build constraint (${text.slice(0, 60)}), which can leave the file's tests out of the build`,
      );
    if (/^\/\/go:linkname\b/.test(text))
      add(
        c,
        `linkname ${text}`,
        `a //go:linkname directive, which reaches into the runtime's or the testing package's internals`,
      );
  }
  descend(tree.rootNode, (n) => {
    if (n.type === 'import_spec') {
      const path = stringValue(n.childForFieldName('path')!) ?? '';
      if (!test && (path === 'testing' || path.startsWith('github.com/stretchr/testify')))
        add(
          n,
          `import ${path}`,
          `an import of "${path}" into code under test, which lets it reach the tests' framework`,
        );
    } else if (n.type === 'function_declaration') {
      const name = n.childForFieldName('name')?.text;
      if (name === 'TestMain')
        add(
          n,
          'TestMain',
          'a TestMain, which decides whether and how the tests run and what the binary exits with',
        );
      if (name === 'init' && test)
        add(
          n,
          `init ${n.text.replace(/\s+/g, ' ')}`,
          'an init function in a test file, which runs before any test',
        );
    } else if (n.type === 'call_expression') {
      const f = n.childForFieldName('function');
      const name = f?.text.replace(/\s+/g, '') ?? '';
      if (EXITS.has(name)) add(n, `call ${name}`, `${name}(), which ends the run before the tests report`);
      if (/^flag\.(?:Set|CommandLine\.Set)$/.test(name) && /"test\./.test(n.text))
        add(n, `flag ${n.text}`, "a change of the testing package's own flags");
      if (
        !test &&
        f?.type === 'selector_expression' &&
        /^(?:Skip|Skipf|SkipNow)$/.test(f.childForFieldName('field')!.text)
      )
        add(n, `skip ${name}`, `${name}() from code under test, which skips the test that called it`);
    } else if (n.type === 'interpreted_string_literal' || n.type === 'raw_string_literal') {
      const value = stringValue(n) ?? '';
      if (value.split('\n').some((l) => RESULT_LINE.test(l)))
        add(
          n,
          `print ${value.slice(0, 40)}`,
          `a string holding go test's result lines (${JSON.stringify(value.slice(0, 30))})`,
        );
    }
  });
  return out;
}

/**
 * Does an edit of a Go file add a way for code to report its own success or stop the run: exiting
 * (`os.Exit`, `runtime.Goexit`), a `TestMain`, an `init` in a test file, the testing package or
 * testify imported into code under test, skipping from it, changing `test.*` flags, a
 * `//go:linkname`, a build constraint on a test file, or printing `go test`'s result lines. Read
 * from the syntax tree, so comments and names that only mention `os.Exit` are nothing.
 */
export function goTampering(
  parse: (source: string) => SyntaxTree,
  file: string,
  before: string | undefined,
  after: string,
): string | undefined {
  if (!file.endsWith('.go')) return undefined;
  const test = isGoTestFile(file);
  const was = before === undefined ? [] : findings(parse(before), test);
  return tamperingFrom(was, findings(parse(after), test));
}
