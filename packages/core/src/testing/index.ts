export {
  registerRunnerConformance,
  runnerConformanceCases,
  type RunnerFixture,
  type HangFixture,
  type ConformanceCase,
  type TestApi,
} from './runner-conformance.js';
export {
  ConformanceError,
  copyFixture,
  snapshotTree,
  diffSnapshots,
  silentLogger,
} from './conformance-utils.js';
export {
  scriptedFixer,
  type ScriptedFixer,
  type ScriptedProposal,
  type ScriptedStep,
} from './scripted-fixer.js';
export { scriptRunner, scriptAnalyzer, projectFrames, type ScriptRunnerOptions } from './script-runner.js';
export { sampleFixRequest, sampleFixerContext } from './sample-fix-request.js';
export {
  registerReporterConformance,
  reporterConformanceCases,
  type ReporterConformanceOptions,
} from './reporter-conformance.js';
export { FixerTester, type CaseApi, type FixerTesterOptions } from './fixer-tester.js';
export {
  checkFixerCase,
  SAMPLE_PROJECT,
  type FixerCase,
  type FixerCaseOptions,
  type FixerExpectation,
} from './fixer-case.js';
export {
  requireToolchain,
  REQUIRE_TOOLCHAINS_ENV,
  type OptionalToolchain,
  type SkippableTest,
} from './toolchain.js';
export { documentedOptions } from './readme-options.js';
export { processGone } from './process-gone.js';
export { checkTestEdit, type TestEditVerdict } from './weakening-check.js';
