import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { addImport, removeDeclaration, removeImport } from './rules.js';
import { stdPackages } from './std-packages.js';

/** The file as gofmt writes it. */
const gofmt = (text: string): string => execFileSync('gofmt', { input: text, encoding: 'utf8' });

const BLOCK = `package p

import (
\t"fmt"
\t"os"

\t"example.com/x"
)

func F() { fmt.Println(os.Args, x.Y, strings.ToUpper("a")) }
`;

describe('Go import edits', () => {
  it('sorts a new import into the standard group of a block, as gofmt keeps it', () => {
    const after = addImport(BLOCK, 'strings')!;
    expect(after).toContain('\t"fmt"\n\t"os"\n\t"strings"\n\n\t"example.com/x"\n');
    expect(gofmt(after)).toBe(after);
    expect(addImport(BLOCK, 'bytes')).toContain('import (\n\t"bytes"\n\t"fmt"\n');
  });

  it('adds an import to a file with none, or beside a single-line import', () => {
    const none = addImport('package p\n\nfunc F() int { return len(strings.Fields("a b")) }\n', 'strings')!;
    expect(none).toBe(
      'package p\n\nimport "strings"\n\nfunc F() int { return len(strings.Fields("a b")) }\n',
    );
    expect(gofmt(none)).toBe(none);
    expect(addImport('package p\n\nimport "fmt"\n', 'os')).toBe('package p\n\nimport "fmt"\nimport "os"\n');
  });

  it('removes only the import named, a named import included, and an emptied block', () => {
    const after = removeImport(BLOCK, 'os')!;
    expect(after).toContain('\t"fmt"\n\n\t"example.com/x"\n');
    expect(removeImport('package p\n\nimport (\n\tstr "strings"\n)\n\nfunc F() {}\n', 'strings')).toBe(
      'package p\n\n\nfunc F() {}\n',
    );
    expect(removeImport('package p\n\nimport "os"\n', 'os')).toBe('package p\n\n');
    // "os/exec" is not "os"
    expect(removeImport('package p\n\nimport "os/exec"\n', 'os')).toBeUndefined();
  });

  it('names every standard package a name may stand for', () => {
    expect(stdPackages('filepath')).toEqual(['path/filepath']);
    expect(stdPackages('rand')).toEqual(['crypto/rand', 'math/rand', 'math/rand/v2']);
    expect(stdPackages('template')).toEqual(['html/template', 'text/template']);
    expect(stdPackages('widget')).toEqual([]);
  });
});

describe('removing an unused Go variable', () => {
  const body = (decl: string): string => `package p\n\nfunc F(n int) int {\n\t${decl}\n\treturn n\n}\n`;

  it('removes a lone declaration of a literal or a plain name', () => {
    for (const decl of ['x := 42', 'x := "a // b"', 'x := n', "x := 'c' // note"])
      expect(removeDeclaration(body(decl), 4, 'x')).toBe('package p\n\nfunc F(n int) int {\n\treturn n\n}\n');
  });

  it('keeps a declaration whose value could run something or panic, and a line that is not it', () => {
    for (const decl of [
      'x := next()',
      'x := <-ch',
      'x := a[n]',
      'x := p.field',
      'x, y := 1, 2',
      'x := []int{',
    ])
      expect(removeDeclaration(body(decl), 4, 'x')).toBeUndefined();
    expect(removeDeclaration(body('y := 1'), 4, 'x')).toBeUndefined();
    expect(removeDeclaration(body('x := 1'), 5, 'x')).toBeUndefined();
  });
});
