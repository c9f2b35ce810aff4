import pytest from '@suture/runner-pytest';

// The pytest analyzer, ending the process when asked to analyze a failing run.
export default function exitAnalyzer() {
  const inner = pytest().analyzer();
  return {
    ...inner,
    name: 'exit-analyzer',
    analyze() {
      process.exit(0);
    },
    scope: (failure, project) => inner.scope(failure, project),
  };
}
