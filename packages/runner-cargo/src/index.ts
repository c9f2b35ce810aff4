import { API_VERSION, type Runner } from '@suture/core';
import { rustAnalyzer } from './analyzer/index.js';
import { rustParser } from './analyzer/rust-syntax.js';
import { detectCargo } from './detect.js';
import { doctorCargo } from './doctor.js';
import { CargoOptionsSchema, type CargoOptions } from './options.js';
import { runCargo } from './run.js';

export type { CargoOptions } from './options.js';
export { rustAnalyzer } from './analyzer/index.js';

/** The cargo runner: `cargo({ args: ['--workspace'] })`. Runs the project's own `cargo test`. */
export default function cargo(options: CargoOptions = {}): Runner {
  const resolved = CargoOptionsSchema.parse(options);
  const parser = rustParser();
  return {
    name: '@suture/runner-cargo',
    apiVersion: API_VERSION,
    language: 'rust',
    supportsSelection: true,
    run: (ctx) => runCargo(resolved, ctx, parser),
    detect: detectCargo,
    analyzer: rustAnalyzer,
    doctor: (root) => doctorCargo(resolved, root),
  };
}
