import pytest from '@suture/runner-pytest';

// The pytest runner, ending the process in its run (options.stuck: never settling instead).
export default function exitRunner(options = {}) {
  const inner = pytest();
  return {
    ...inner,
    name: options.stuck ? 'stuck-runner' : 'exit-runner',
    analyzer: () => inner.analyzer(),
    run(ctx) {
      if (options.stuck) return new Promise(() => {});
      process.exit(0);
      return inner.run(ctx);
    },
  };
}
