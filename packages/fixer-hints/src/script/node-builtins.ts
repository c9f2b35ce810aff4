import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import ts from 'typescript';

// Deprecated aliases (`sys` for `util`, `constants`) and modules the user never requires by that name.
const SKIP = new Set(['sys', 'constants', 'punycode', 'console', 'process', 'module']);

/** Node's built-in modules that a file can bind under their own name (`os`, `child_process`). */
export function isBuiltinModuleName(name: string): boolean {
  return !SKIP.has(name) && /^[a-z_]\w*$/.test(name) && builtinModules.includes(name);
}

/** A file next to `file` that `require('./<name>')` would load: then `<name>` may mean the project's module. */
export function projectModuleNamed(file: string, name: string): string | undefined {
  const dir = dirname(file);
  return ['.js', '.cjs', '.mjs', '.ts', '.cts', '.mts', '.json', '/index.js', '/index.ts']
    .map((ext) => join(dir, `${name}${ext}`))
    .find((candidate) => candidate !== file && existsSync(candidate));
}

/** `name.member` expressions of a file where `name` is not declared: how the missing module is used. */
export function memberUses(sf: ts.SourceFile, name: string): ts.PropertyAccessExpression[] {
  const out: ts.PropertyAccessExpression[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === name
    )
      out.push(node);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/**
 * The statement binding a built-in module under its own name, written the way the file writes
 * its other imports (`require` or `import`, quotes, the `node:` prefix), and where it goes: after
 * the leading imports and requires, else after a shebang and directive prologue, else first.
 */
export function bindingStatement(
  sf: ts.SourceFile,
  name: string,
  esm: boolean,
): { at: number; text: string } {
  const source = sf.getFullText();
  const firstString = /(['"])(?:\\.|(?!\1)[^\\\n])*\1/.exec(source.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, ''));
  const quote = firstString?.[1] ?? '"';
  const prefix = /(?:require\(\s*|from\s+)['"]node:/.test(source) ? 'node:' : '';
  const spec = `${quote}${prefix}${name}${quote}`;
  const statement = esm ? `import * as ${name} from ${spec};` : `const ${name} = require(${spec});`;
  const isRequire = (s: ts.Statement): boolean =>
    ts.isVariableStatement(s) &&
    s.declarationList.declarations.every(
      (d) =>
        !!d.initializer &&
        ts.isCallExpression(d.initializer) &&
        ts.isIdentifier(d.initializer.expression) &&
        d.initializer.expression.text === 'require',
    );
  let last: ts.Statement | undefined;
  let prologue: ts.Statement | undefined;
  for (const s of sf.statements) {
    if (ts.isImportDeclaration(s) || ts.isImportEqualsDeclaration(s) || isRequire(s)) last = s;
    else if (!last && ts.isExpressionStatement(s) && ts.isStringLiteral(s.expression)) prologue = s;
    else break;
  }
  const after = last ?? prologue;
  if (after) return { at: after.getEnd(), text: `\n${statement}` };
  const shebang = /^#!.*\n/.exec(source)?.[0].length ?? 0;
  return { at: shebang, text: `${statement}\n\n` };
}
