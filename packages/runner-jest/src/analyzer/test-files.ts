import { testFileMatcher } from '@suture/core/analysis';

/**
 * Jest's default discovery (`*.test.*` and `*.spec.*` scripts, anything under `__tests__`), its
 * manual mocks (`__mocks__`), and `test`/`tests` folders (helpers, setup, data). The analyzer's
 * `isTestFile` and the roles of its scope both read this.
 */
export const isScriptTestFile: (file: string) => boolean = testFileMatcher({
  extensions: ['.js', '.jsx', '.ts', '.tsx', '.mjs', '.cjs', '.mts', '.cts'],
  suffixes: ['.test', '.spec'],
  folders: ['__tests__', '__mocks__', 'test', 'tests'],
});
