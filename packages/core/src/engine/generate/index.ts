/** The auto-run engine behind `suture generate tests` and `suture autorun`. */
export { runAutoRun, autoRunDir } from './autorun.js';
export { renderAutoRunMarkdown } from './markdown.js';
export { coverageProbeFor } from './coverage/index.js';
export { coveragePy, parseCoveragePy } from './coverage/python.js';
export { istanbulJest, parseIstanbul } from './coverage/jest.js';
export { gcovr, parseGcovr } from './coverage/gcovr.js';
export {
  CoverageError,
  type CoverageData,
  type CoverageProbe,
  type CoverageRequest,
} from './coverage/probe.js';
export { entryOf, linkedLibraries } from './cmake.js';
export { projectFiles } from './project-files.js';
export type { AutoRunOptions, GenerationSource } from './types.js';
