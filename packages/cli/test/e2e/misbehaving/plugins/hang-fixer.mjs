import { API_VERSION } from '@suture/core';

// A fixer that never answers and keeps the event loop busy, as a stuck network call would.
export default function hangFixer() {
  return {
    name: 'hang-fixer',
    apiVersion: API_VERSION,
    propose() {
      return new Promise(() => {
        setInterval(() => {}, 1000);
      });
    },
  };
}
