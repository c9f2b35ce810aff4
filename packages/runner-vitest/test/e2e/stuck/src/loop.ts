export interface Counter {
  count: number;
}

/** Waits for a counter that nothing else can change. */
export function spin(counter: Counter): number {
  const start: Counter = { ...counter };
  while (counter.count === start.count) counter.count += 0;
  return counter.count;
}

export function settle(counter: Counter): number {
  return spin(counter);
}
