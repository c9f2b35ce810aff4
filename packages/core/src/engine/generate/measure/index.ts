import { gcovr } from './gcovr.js';
import { istanbulJest } from './jest.js';
import { coveragePy } from './python.js';
import { CoverageError, type CoverageProbe } from './probe.js';

/** The coverage tool that fits a runner's language: coverage.py, gcovr, or Jest's Istanbul. */
export function coverageProbeFor(language: string): CoverageProbe {
  if (language === 'python') return coveragePy();
  if (language === 'cpp' || language === 'c') return gcovr();
  if (language === 'javascript' || language === 'typescript') return istanbulJest();
  throw new CoverageError(
    `no coverage tool is known for ${language} projects; pass one as the \`coverage\` option of the auto-run`,
  );
}
