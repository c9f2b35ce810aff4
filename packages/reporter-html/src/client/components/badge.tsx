/** Tone of a status, outcome or verdict word: the colour a reviewer reads it by. */
const TONES: Record<string, string> = {
  completed: 'ok',
  healed: 'ok',
  passed: 'ok',
  green: 'ok',
  failed_after_repair: 'warn',
  reverted: 'warn',
  refused: 'warn',
  'repeated-patch': 'warn',
  'repeated-request': 'warn',
  'expectation-changed': 'warn',
  running: 'info',
  waiting: 'muted',
  cancelled: 'muted',
  skipped: 'muted',
  failed: 'bad',
  failing: 'bad',
  error: 'bad',
  timeout: 'bad',
  crashed: 'bad',
  exhausted: 'bad',
  unfixable: 'bad',
  'failed-validation': 'bad',
  'fixer-error': 'bad',
  'product-bug': 'bug',
  flaky: 'flaky',
};

export function tone(value: string): string {
  return TONES[value] ?? 'muted';
}

export function Badge({ value, label }: { value: string; label?: string }) {
  return <span class={`badge tone-${tone(value)}`}>{label ?? value.replace(/_/g, ' ')}</span>;
}
