import { fileURLToPath } from 'node:url';
import { registerRunnerConformance } from '@suture/core/testing';
import { afterAll, beforeAll, describe, it } from 'vitest';
import go from '../../src/index.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./${name}`, import.meta.url));
process.env.GOTOOLCHAIN = 'local';
process.env.GOPROXY = 'off';

registerRunnerConformance({ describe, it, beforeAll, afterAll }, go(), {
  path: fixture('basic'),
  failing: ['.::TestTotalWithDiscount', '.::TestTax/ten_percent', '.::TestTax/zero'],
  passing: ['.::TestSubtotal', 'shapes::TestSquare/unit', '.::TestArea'],
  hang: { path: fixture('hang'), test: '.::TestForever', timeoutMs: 8000 },
  buildError: { path: fixture('broken'), file: 'calc.go', line: 4 },
  missingToolchain: go({ go: '/nonexistent/go' }),
  definitions: { '.::TestTax/ten_percent': 'ten percent', '.::TestTax/zero': 'zero' },
});
