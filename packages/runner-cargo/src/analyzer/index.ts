import { API_VERSION, type Analyzer } from '@suture/core';
import { analyzeCargo } from './analyze.js';
import { readProject } from './project.js';
import { rustParser } from './rust-syntax.js';
import { scopeCargo } from './scope.js';
import { rustTampering } from './tampering.js';
import { isRustTestFile } from './test-files.js';
import { rustTestModel } from './test-model/index.js';

/** The Rust analyzer: groups `cargo test` failures by root cause and walks a crate's modules for a ranked scope. */
export function rustAnalyzer(): Analyzer {
  const parser = rustParser();
  return {
    name: '@suture/runner-cargo/analyzer',
    apiVersion: API_VERSION,
    async analyze(result, project) {
      return analyzeCargo(result, project, await readProject(project.root, parser));
    },
    async scope(failure, project) {
      return scopeCargo(failure, project, await readProject(project.root, parser));
    },
    isTestFile: isRustTestFile,
    checkSyntax(file, content) {
      if (!file.endsWith('.rs')) return undefined;
      const { tree } = parser.parseText(content);
      if (!tree.rootNode.hasError) return undefined;
      const bad =
        tree.rootNode.descendantsOfType('ERROR')[0] ?? tree.rootNode.descendantsOfType('MISSING')[0];
      return `syntax error near line ${(bad?.startPosition.row ?? 0) + 1}`;
    },
    testModel: rustTestModel,
    checkTampering: rustTampering,
  };
}
