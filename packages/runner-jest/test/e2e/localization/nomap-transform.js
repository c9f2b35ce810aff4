// A transform that returns no source map, as ts-jest 29.1 does for a tsconfig with
// "sourceMap": false and "removeComments": true: the lines Jest prints for the files it compiles
// are the compiled code's, not the source's.
const ts = require('typescript');

module.exports = {
  process(source, fileName) {
    const { outputText } = ts.transpileModule(source, {
      fileName,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, removeComments: true },
    });
    return { code: outputText };
  },
};
