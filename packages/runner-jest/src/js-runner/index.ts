export { tailEvents, type EventSchema, type EventTail } from './tail-events.js';
export {
  BLOCKING_DEFAULT_MS,
  FILE_GAP_MIN_MS,
  RERUN_FACTOR,
  fileGapLimit,
  stoppedMessage,
  testLimit,
  type Limit,
  type LimitInputs,
  type TimeoutTool,
} from './limits.js';
export { HangMemory, familyOf, siblingLimit, type Family, type Hung } from './siblings.js';
export { LINGER_MS, watchPass, type WatchedPass, type WatchedPassInput } from './pass.js';
export {
  MAX_STOPPED,
  OUTPUT_TAIL_CHARS,
  cutShortResult,
  lingerNote,
  startRun,
  tail,
  wantedBy,
  type CutShort,
  type DurationMemory,
  type RunStart,
} from './run.js';
export { distinctNames, escapeRegex, parseId, selectedNames, testId, type TestPlace } from './ids.js';
export {
  CAPTURE_BOUND_MS,
  STACKS_DIR_ENV,
  STACK_START,
  requestStacks,
  stuckIn,
  stuckReport,
  type ProcessStack,
  type StackFrame,
  type Stuck,
} from './stuck.js';
