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
  depthExtension,
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
export { rankedSlices, rankedSources, type RankedSources } from './budget.js';
export { distinctFrames } from './frames.js';
export { PassingTests } from './passing-tests.js';
export { SummaryCache, type FileSummary, type SummaryCacheOptions } from './summary-cache.js';
export { editDistance } from '../text/edit-distance.js';
export { testFileMatcher, type TestFileConventions } from './test-files.js';
export { failureFingerprint, normalizeMessage, type FailureSignature } from './fingerprint.js';
export { groupFailures, type FailureCase } from './group-failures.js';
export { CHOOSE_PYTHON, resolvePython, shellPath } from './python-interpreter.js';
export { addedFindings, tamperingFrom, type Finding } from './added-findings.js';
export {
  approximately,
  assertionFacts,
  boundOnce,
  braceTestModel,
  callsIn,
  checkingUnits,
  cleanText,
  collect,
  comparison,
  conditionsAround,
  deadBranch,
  disarmedIn,
  fileConstants,
  foldComparison,
  FormBuilder,
  helperCalls,
  isDependency,
  loosening,
  namesIn,
  namesOf,
  NO_CONSTANTS,
  numberOf,
  plainTree,
  PlainNode,
  PYTEST_APPROX,
  readThrough,
  same,
  sideOf,
  textForm,
  throughLocals,
  underConditions,
  withLocals,
  withTextForms,
  type AssertionDetail,
  type AssertionForm,
  type Binding,
  type BraceLanguage,
  type Constants,
  type DefaultTolerance,
  type Definition,
  type Dialect,
  type FileModelDetail,
  type Found,
  type ReadThrough,
  type Role,
  type Side,
  type Unit,
  type ValueDialect,
} from './test-model/index.js';
export type { AssertionFact, TestFact, TestFileModel } from '../api/test-model.js';
