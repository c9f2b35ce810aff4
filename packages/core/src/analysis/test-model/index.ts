/**
 * The kit the runner packages build their test-file readers from (the `testModel` hook of their
 * analyzers): plain syntax trees, the language-neutral walk over tests and their assertions, the
 * forms assertions take, and text rules for a file that does not parse. Languages differ only in
 * their `Dialect` and their own readers, which live in their runner packages.
 */
export { Node as PlainNode, plainTree } from './plain-tree.js';
export {
  assertionFacts,
  callsIn,
  checkingUnits,
  cleanText,
  collect,
  deadBranch,
  disarmedIn,
  helperCalls,
  namesIn,
  same,
  type Dialect,
  type Found,
  type Unit,
} from './tree-walk.js';
export {
  boundOnce,
  fileConstants,
  foldComparison,
  NO_CONSTANTS,
  readThrough,
  withLocals,
  type Binding,
  type Constants,
  type ReadThrough,
  type ValueDialect,
} from './tree-values.js';
export {
  approximately,
  comparison,
  FormBuilder,
  loosening,
  numberOf,
  PYTEST_APPROX,
  type AssertionForm,
  type DefaultTolerance,
  type Role,
  type Side,
} from './form.js';
export { conditionsAround, sideOf, underConditions } from './form-tree.js';
export { textForm, withTextForms } from './form-text.js';
export { braceTestModel, type BraceLanguage } from './brace-text.js';
export {
  isDependency,
  namesOf,
  throughLocals,
  type AssertionDetail,
  type Definition,
  type FileModelDetail,
} from './names.js';
