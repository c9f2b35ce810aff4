// Starts the project's own Vitest the way its `vitest run` command does, for @suture/runner-vitest.
//
// Why not `vitest run --reporter=...`: with the threads pool the tests see this process's argv,
// and a test that parses process.argv fails on flags it does not know. So process.argv is set to
// exactly what `vitest run <the user's args>` gives; Vitest's own parser (parseCLI) reads those
// args, and what suture needs (its reporter, the selection, test locations, limits) is added to
// the options handed to Vitest's Node API (createVitest), as its CLI's startVitest does. The plan
// arrives through an environment variable that is removed before Vitest loads anything.
import { appendFileSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { sutureReporter } from './suture-vitest-reporter.mjs';

const planFile = process.env.SUTURE_VITEST_PLAN;
delete process.env.SUTURE_VITEST_PLAN;
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
process.argv = [process.argv[0], plan.vitestBin, 'run', ...plan.args];

/** Starts the line the runner takes for the reason of a run that did not start. */
const SETUP_PREFIX = '[suture] cannot start Vitest: ';
class SetupError extends Error {}

/** The test name pattern of this pass: the selection, less the tests that hung. */
function namePattern(user) {
  if (plan.names) return `${plan.excludeNames ?? ''}${plan.names}`;
  if (!plan.excludeNames) return user;
  const u = user instanceof RegExp ? user.source : user;
  return u ? `${plan.excludeNames}[\\s\\S]*?(?:${u})` : plan.excludeNames;
}

function browserCheck(vitest) {
  const browser = (vitest.projects ?? []).filter(
    (p) => p.config && p.config.browser && p.config.browser.enabled,
  );
  if (browser.length === 0) return;
  const names = browser.map((p) => (p.name ? `"${p.name}"` : 'the root project'));
  const others = (vitest.projects ?? []).filter((p) => !browser.includes(p) && p.name);
  throw new SetupError(
    `Vitest's browser mode (test.browser.enabled, in ${names.join(', ')}) is not supported by @suture/runner-vitest, which runs tests in Node's workers and follows them there; ${
      others.length > 0
        ? `run the Node projects only with the runner option "args": [${others.map((p) => `"--project", "${p.name}"`).join(', ')}]`
        : 'turn browser mode off for the suite suture gates (a Node environment such as jsdom or happy-dom)'
    }`,
  );
}

async function main() {
  const { parseCLI, createVitest } = await import(pathToFileURL(plan.vitestNode).href);
  if (typeof parseCLI !== 'function' || typeof createVitest !== 'function')
    throw new SetupError(`${plan.vitestNode} has no parseCLI or createVitest: suture runs Vitest 3 or newer`);
  const parsed = parseCLI(['vitest', 'run', ...plan.args]);
  // what prepareVitest does before it creates Vitest
  process.env.TEST = 'true';
  process.env.VITEST = 'true';
  process.env.NODE_ENV ??= 'test';
  const options = { ...parsed.options, ...plan.options, run: true, watch: false, includeTaskLocation: true };
  const pattern = namePattern(options.testNamePattern);
  if (pattern) options.testNamePattern = pattern;
  else delete options.testNamePattern;
  if (plan.projects) options.project = plan.projects;
  const vitest = await createVitest('test', options, {}, {});
  let started = false;
  try {
    browserCheck(vitest);
    vitest.reporters.push(sutureReporter(plan.events));
    // a test's start, written by its own worker: one that blocks the worker stops Vitest's own
    // reports of it (they are sent on a timer), not this
    if (plan.setupFile) for (const p of vitest.projects) p.config.setupFiles.push(plan.setupFile);
    started = true;
    await vitest.start(plan.files ?? parsed.filter);
  } catch (error) {
    if (!started || error instanceof SetupError) throw error;
    // what startVitest does with an error of the run: no test file found is a result, not a crash
    if (!(error && error.code === 'VITEST_FILES_NOT_FOUND')) {
      process.exitCode = 1;
      vitest.logger.printError(error, { fullStack: true, type: 'Unhandled Error' });
    }
  } finally {
    await vitest.close();
  }
  // from here on Vitest has nothing left to do: the runner stops a process that an open handle
  // keeps alive after its close
  appendFileSync(
    plan.events,
    `${JSON.stringify({ event: 'cli-end', at: Date.now(), exitCode: process.exitCode ?? 0 })}\n`,
  );
  await vitest.exit();
}

main().catch((error) => {
  if (error instanceof SetupError) console.error(`${SETUP_PREFIX}${error.message}`);
  else console.error(error && error.stack ? error.stack : String(error));
  process.exit(1);
});
