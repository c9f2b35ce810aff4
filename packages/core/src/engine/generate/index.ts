/** The auto-run engine behind `suture generate tests` and `suture autorun`. */
export { runAutoRun, autoRunDir } from './autorun.js';
export { renderAutoRunMarkdown } from './markdown.js';
export { coverageProbeFor } from './measure/index.js';
export { coveragePy, parseCoveragePy } from './measure/python.js';
export { istanbulJest, parseIstanbul } from './measure/jest.js';
export { gcovr, parseGcovr } from './measure/gcovr.js';
export {
  CoverageError,
  type CoverageData,
  type CoverageProbe,
  type CoverageRequest,
} from './measure/probe.js';
export { entryOf, linkedLibraries } from './cmake.js';
export { projectFiles } from './project-files.js';
export type { AutoRunOptions, GenerationSource } from './types.js';
