import { API_VERSION } from '@suture/core';

// A reporter that ends the process once the first project is done.
export default function exitReporter() {
  return {
    name: 'exit-reporter',
    apiVersion: API_VERSION,
    onProjectEnd() {
      process.exit(0);
    },
  };
}
