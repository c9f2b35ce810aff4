export { BUILTIN_REPORTERS, createBuiltinReporter, type BuiltinReporterContext } from './builtin.js';
