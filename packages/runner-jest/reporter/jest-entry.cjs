// Starts the project's own Jest the way its `jest` command does, for @suture/runner-jest.
//
// Why not `jest --json --reporters=...`: in-band, the tests run in this very process, and a test
// that parses process.argv (a CLI built on commander or util.parseArgs, say) fails on flags it
// does not know. So process.argv is set to exactly what `jest <the user's args>` gives; Jest's
// own parser (jest-cli's buildArgv) reads those args, and what suture needs (its reporter, the
// selection, --ci, limits) is added to the parsed object handed to Jest's programmatic runCLI.
// The plan arrives through an environment variable that is removed before Jest loads anything,
// so the tests see the environment a plain run would give them.
'use strict';
const { appendFileSync, readFileSync, realpathSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');

const planFile = process.env.SUTURE_JEST_PLAN;
delete process.env.SUTURE_JEST_PLAN;
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
process.argv = [process.argv[0], plan.jestBin, ...plan.args];
// what jest-cli/bin/jest.js does before it runs
if (process.env.NODE_ENV == null) process.env.NODE_ENV = 'test';

/** What keeps the project's Jest from starting here: said on one line, which the runner reports. */
class SetupError extends Error {}
/** Starts the line the runner takes for the reason of a run that did not start. */
const SETUP_PREFIX = '[suture] cannot start Jest: ';

/** jest-cli and @jest/core as the project's Jest resolves them (hoisted, nested or pnpm). */
function loadJest(bin) {
  let dir = dirname(realpathSync(bin));
  for (;;) {
    try {
      const name = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name;
      if (name === 'jest' || name === 'jest-cli') break;
    } catch {
      // not a package folder
    }
    if (dirname(dir) === dir) throw new SetupError(`${bin} is not inside the jest or jest-cli package`);
    dir = dirname(dir);
  }
  const cliPath = createRequire(join(dir, 'package.json')).resolve('jest-cli');
  const core = createRequire(cliPath)('@jest/core');
  // jest-cli's own parser: exported by Jest 30, in build/run.js of Jest 29 and in
  // build/cli/index.js of Jest 27 and 28 (a file path, which the package's exports do not limit)
  const buildArgv = [cliPath, join(dirname(cliPath), 'run.js'), join(dirname(cliPath), 'cli', 'index.js')]
    .map((file) => {
      try {
        return require(file).buildArgv;
      } catch {
        return undefined;
      }
    })
    .find((fn) => typeof fn === 'function');
  if (!buildArgv || typeof core.runCLI !== 'function')
    throw new SetupError(
      `the Jest at ${dir} (${versionOf(dir)}) has no buildArgv or runCLI where suture looks for them: suture runs Jest 27 or newer`,
    );
  return { buildArgv, runCLI: core.runCLI };
}

function versionOf(dir) {
  try {
    return `version ${JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version}`;
  } catch {
    return 'version unknown';
  }
}

/** `prefix` ahead of each pattern, which Jest searches for anywhere in the string. */
function within(prefix, patterns) {
  if (patterns.length === 0) return [prefix];
  return patterns.map((p) => `${prefix}[\\s\\S]*?(?:${String(p).replace(/^\.\//, '^')})`);
}

/**
 * The stack helper (reporter/suture-stack-start.cjs) in this process, which runs the tests
 * in-band, and in each worker process Jest forks: there as a --require that takes its folder from
 * the environment and then removes both, so the tests see the flags and variables a plain run
 * gives them. Jest's workers in worker threads (its workerThreads option) get none.
 */
function startStackHelpers(stacks) {
  if (!stacks) return;
  const { startStackHelper, ENV } = require(stacks.start);
  startStackHelper(stacks.dir);
  const childProcess = require('node:child_process');
  const fork = childProcess.fork;
  childProcess.fork = function forkWithStackHelper(modulePath, args, options) {
    const file = typeof modulePath === 'string' ? modulePath : String(modulePath);
    if (!/[\\/]jest-worker[\\/]/.test(file)) return fork.apply(this, arguments);
    const [list, opts] = Array.isArray(args) ? [args, options] : [[], args];
    const given = opts ?? {};
    return fork.call(this, modulePath, list, {
      ...given,
      env: { ...(given.env ?? process.env), [ENV]: stacks.dir },
      execArgv: [...(given.execArgv ?? process.execArgv), '--require', stacks.start],
    });
  };
}

async function main() {
  startStackHelpers(plan.stacks);
  const { buildArgv, runCLI } = loadJest(plan.jestBin);
  const argv = await buildArgv(plan.args);
  Object.assign(argv, plan.argv);
  // The events file is handed to the reporter here, in the process that loads it, and not as a
  // reporter option: Jest copies the reporters into each project's config, which keys its
  // transform cache, and a path that changes per run made every run transform every file again.
  require(plan.reporter).eventsFile = plan.events;
  argv.reporters = [...(argv.reporters ?? ['default']), plan.reporter];
  if (plan.files) {
    argv._ = plan.files;
    argv.runTestsByPath = true;
  } else if (plan.excludePaths) {
    argv._ = within(plan.excludePaths, [...argv._, ...(argv.testPathPatterns ?? [])]);
    delete argv.testPathPatterns;
  }
  if (plan.names || plan.excludeNames) {
    const names = plan.names ?? within('', argv.testNamePattern ? [argv.testNamePattern] : [])[0];
    argv.testNamePattern = `${plan.excludeNames ?? ''}${names}`;
  }
  const projects = argv.projects && argv.projects.length > 0 ? argv.projects : [process.cwd()];
  const { results, globalConfig } = await runCLI(argv, projects);
  // jest-cli's exit: the failure code, and a forced exit only when the user asked for one
  const code = results.success ? 0 : globalConfig.testFailureExitCode;
  // from here on Jest has nothing left to do (global teardown included): the runner stops a
  // process that an open handle keeps alive, which a plain `jest` would wait on forever
  appendFileSync(plan.events, `${JSON.stringify({ event: 'cli-end', at: Date.now(), exitCode: code })}\n`);
  process.on('exit', () => {
    if (code !== 0) process.exitCode = code;
  });
  if (globalConfig.forceExit) process.exit(code);
  const wait = globalConfig.openHandlesTimeout ?? 1000;
  if (!globalConfig.detectOpenHandles && wait !== 0) {
    setTimeout(() => {
      const after = wait === 1000 ? 'one second' : `${wait / 1000} seconds`;
      console.warn(
        `Jest did not exit ${after} after the test run has completed.\n\nThis usually means that there are asynchronous operations that weren't stopped in your tests. Consider running Jest with \`--detectOpenHandles\` to troubleshoot this issue.`,
      );
    }, wait).unref();
  }
}

main().catch((error) => {
  if (error instanceof SetupError) console.error(`${SETUP_PREFIX}${error.message}`);
  else console.error(error && error.stack ? error.stack : String(error));
  process.exit(1);
});
