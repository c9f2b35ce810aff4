/**
 * `@suture/core/analysis`: the kit analyzers are built from. The only entry point that loads
 * tree-sitter's native addon; runners bring their own grammar packages.
 */
export {
  ParseCache,
  enclosing,
  nodeAtLine,
  type Grammar,
  type ParsedFile,
  type SyntaxNode,
  type SyntaxTree,
} from './parse-cache.js';
export {
  MAX_REASONS,
  mergeScopeEntries,
  nodeKey,
  walkCodeGraph,
  walkGraph,
  type CodeEdge,
  type CodeNode,
  type ReachedNode,
  type WalkOptions,
  type WalkResult,
  type WalkSeed,
} from './graph-walk.js';
export { rankScope, type RankInput } from './rank.js';
export { rankedSlices } from './budget.js';
export { distinctFrames } from './frames.js';
export { PassingTests } from './passing-tests.js';
export { SummaryCache, type FileSummary, type SummaryCacheOptions } from './summary-cache.js';
export { editDistance } from '../text/edit-distance.js';
export { testFileMatcher, type TestFileConventions } from './test-files.js';
export { failureFingerprint, normalizeMessage, type FailureSignature } from './fingerprint.js';
export { groupFailures, type FailureCase } from './group-failures.js';
export { CHOOSE_PYTHON, resolvePython, shellPath } from './python-interpreter.js';
export { addedFindings, tamperingFrom, type Finding } from './added-findings.js';
export { Node as PlainNode, plainTree } from './plain-tree.js';
