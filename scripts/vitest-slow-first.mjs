import { BaseSequencer } from 'vitest/node';

/**
 * A sequencer that starts the named test files (paths relative to the package, longest first)
 * before all others. Vitest orders files by the durations it cached on an earlier run; a fresh
 * clone, as in CI, has no cache, and a long end-to-end file that starts last holds the run's end
 * while the other workers sit idle.
 * @param {readonly string[]} slowest
 */
export function slowFirst(slowest) {
  return class SlowFirst extends BaseSequencer {
    /** @param {import('vitest/node').TestSpecification[]} files */
    async sort(files) {
      const sorted = await super.sort(files);
      /** @param {import('vitest/node').TestSpecification} spec */
      const rank = (spec) => {
        const i = slowest.findIndex((file) => spec.moduleId.endsWith(`/${file}`));
        return i < 0 ? slowest.length : i;
      };
      return sorted
        .map((spec, order) => ({ spec, order, rank: rank(spec) }))
        .sort((a, b) => a.rank - b.rank || a.order - b.order)
        .map(({ spec }) => spec);
    }
  };
}
