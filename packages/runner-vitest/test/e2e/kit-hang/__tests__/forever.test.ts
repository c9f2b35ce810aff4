import { it } from 'vitest';

it('waits forever', () => {
  for (;;) {
    // blocks its worker: Vitest's own timeout cannot stop it
  }
});
