/**
 * A Vitest setup file that reports each test's start from its own worker, synchronously. Vitest's
 * worker sends task updates to the main process on a timer, which never fires while a test blocks
 * the worker with synchronous code: without this, the test that blocks cannot be named. It imports
 * the project's own Vitest by the path the tests' `vitest` resolves to, so it registers its hook
 * in the same runner, and writes where the runner reads. It also starts the helper that gives the
 * runner the worker's stack when a test blocks it (reporter/suture-stack-start.cjs of the Jest runner).
 */
export function setupFileSource(
  vitestIndex: string,
  events: string,
  stacks: { start: string; dir: string },
): string {
  return `import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeEach } from ${JSON.stringify(vitestIndex)};
const events = ${JSON.stringify(events)};
createRequire(${JSON.stringify(stacks.start)})(${JSON.stringify(stacks.start)}).startStackHelper(${JSON.stringify(stacks.dir)});
beforeEach((context) => {
  const task = context.task;
  const names = [];
  for (let t = task; t && t !== task.file; t = t.suite) names.unshift(t.name);
  const event = { event: 'test-begin', file: task.file.filepath, id: task.id, names, at: Date.now() };
  if (task.file.projectName) event.project = task.file.projectName;
  if (typeof task.timeout === 'number' && task.timeout > 0) event.timeout = task.timeout;
  appendFileSync(events, JSON.stringify(event) + '\\n');
});
`;
}
