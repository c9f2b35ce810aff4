export {
  BUILTIN_REPORTERS,
  createBuiltinReporter,
  type BuiltinReporterContext,
  type BuiltinReporterName,
} from './builtin.js';
export { consoleReporter, type ConsoleStream } from './console.js';
export { jsonReporter } from './json.js';
export { junitReporter, renderJunit, type JunitFlavor } from './junit.js';
export { markdownReporter, renderMarkdown } from './markdown.js';
export { patchReporter } from './patch.js';
export { bugsReporter, collectBugs, type BugEntry } from './bugs.js';
export { lastFullRound, healedTests } from './final-tests.js';
