import { API_VERSION } from '@suture/core';

// A fixer that ends the process: at once in propose, or later from a timer it leaves behind.
export default function exitFixer(options = {}) {
  return {
    name: 'exit-fixer',
    apiVersion: API_VERSION,
    async propose() {
      if (options.later) {
        setTimeout(() => process.exit(0), 50);
        return new Promise(() => {});
      }
      process.exit(0);
      return { verdict: 'unfixable', diagnosis: 'not reached' };
    },
  };
}
