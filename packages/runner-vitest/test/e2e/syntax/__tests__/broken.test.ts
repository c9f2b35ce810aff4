import { it } from 'vitest';
it('never parses', () => { const x = ; });
