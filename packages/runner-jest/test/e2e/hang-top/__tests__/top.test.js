// a module that never finishes loading (it waits on a lock nobody releases): no test of it ever
// starts
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);

test('never reached', () => {});
