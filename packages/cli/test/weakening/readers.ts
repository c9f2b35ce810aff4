import { API_VERSION, type Analyzer, type TestFileModel } from '@suture/core';
import {
  checkTestWeakening as guard,
  type WeakeningOptions,
  type WeakeningVerdict,
} from '@suture/core/internal';
import ctest from '@suture/runner-ctest';
import jest from '@suture/runner-jest';
import pytest from '@suture/runner-pytest';

// The first-party readers, each in its runner package, as the gate reaches them: an analyzer's
// testModel. A file is read by the runner whose language it is written in.
const analyzers = [pytest().analyzer!(), jest().analyzer!(), ctest().analyzer!()];

/** One analyzer that reads Python, JS/TS and C/C++ test files with the first-party readers. */
export const firstParty: Analyzer = {
  name: 'first-party-readers',
  apiVersion: API_VERSION,
  analyze: async () => [],
  scope: async () => ({ entries: [] }),
  testModel(file, content, reader) {
    for (const a of analyzers) {
      const model = a.testModel?.(file, content, reader);
      if (model) return model;
    }
    return undefined;
  },
};

/** The gate's weakening guard over the first-party readers. */
export function checkTestWeakening(
  file: string,
  before: string | undefined,
  after: string,
  options: WeakeningOptions = {},
): WeakeningVerdict {
  return guard(file, before, after, { analyzer: firstParty, ...options });
}

/** A file as the syntax-tree reader of its language reads it. */
export function treeTestModel(file: string, content: string): TestFileModel | undefined {
  return firstParty.testModel!(file, content, 'tree');
}
