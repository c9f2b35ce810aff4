import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * A sequencer that starts the named test files (paths relative to the package, longest first)
 * before all others. Vitest orders files by the durations it cached on an earlier run; a fresh
 * clone, as in CI, has no cache, and a long end-to-end file that starts last holds the run's end
 * while the other workers sit idle.
 */
export function slowFirst(slowest: readonly string[]): typeof BaseSequencer {
  return class SlowFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      const rank = (spec: TestSpecification): number => {
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
