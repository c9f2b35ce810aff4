'use strict';

/** Waits for a counter that nothing else can change. */
function spin(counter) {
  const start = { ...counter };
  while (counter.count === start.count) counter.count += 0;
  return counter.count;
}

function settle(counter) {
  return spin(counter);
}

module.exports = { settle };
