import { readFileSync } from 'node:fs';
import { cac } from 'cac';
import type { AutorunCommandFlags } from './commands/autorun.js';
import type { HealFlags } from './commands/heal.js';
import type { InitFlags } from './commands/init.js';
import type { McpFlags } from './commands/mcp.js';
import type { MergeFlags } from './commands/merge.js';
import type { RunFlags } from './commands/run.js';
import type { ToolsFlags } from './commands/tools.js';
import type { UiCommandFlags } from './commands/ui.js';
import { EXIT } from './exit-codes.js';

const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Parses argv, runs the command and returns the process exit code (0, 1, 2 or 3). */
export async function main(argv: readonly string[]): Promise<number> {
  // Each command's module is imported when that command runs: `--version`, `--help` and a usage
  // error load no engine, and `run` loads none of the other commands' dependencies.
  const cli = cac('suture');
  let code: number = EXIT.green;
  const run = cli
    .command(
      'run [...projects]',
      "Run the test gate: run every project's tests, diagnose failures and heal what can be healed",
    )
    .option(
      '--fix',
      'Keep the validated heals in the working tree (default: check mode, the tree is left as it was)',
    )
    .option(
      '--no-heal',
      'Report failures without asking any fixer; failed tests are not re-run unless --retries is given',
    )
    .option(
      '--no-block',
      'Exit 0 even when failures remain after the repair rounds (config: "blocking": false); the reports say what would have blocked; usage and config errors still exit 2, internal errors 3',
    )
    .option('--fixer <name>', 'Use only this fixer from the configured ladder (repeatable)')
    .option('--max-attempts <n>', 'Attempts per failure group (default from config, 3)')
    .option(
      '--changed [ref]',
      'Run only the tests the change since REF can reach (default: the merge base of HEAD with origin/HEAD, main or master), from the selection record of earlier green runs; a project without a usable record runs whole and the report says why (config: "select": "changed")',
    )
    .option(
      '--record',
      'Green runs record which lines each test ran, for --changed (by default only a whole-suite run of a project without a usable record does; config: "record")',
    )
    .option(
      '--retries <n>',
      'Re-runs of failed tests to tell flaky ones apart, 0 to 5 (default: heal.flakyReruns, 1; 0 with --no-heal)',
    )
    .option('--reporter <name>', 'Use this reporter instead of the configured ones (repeatable)')
    .option('--json', 'Print the JSON report on stdout (human output goes to stderr)')
    .option('--concurrency <n>', 'Projects gated at once')
    .option('--config <file>', 'Config file (default: suture.config.* found walking up)')
    .option(
      '--shard <i/n>',
      'Gate only shard i of n: projects split by their durations in the latest earlier run (merge the shards with suture merge)',
    )
    .option(
      '--out <dir>',
      "This run's folder for its reports, instead of a new one under .suture/runs (replaced when it holds an earlier run)",
    )
    .option(
      '--ui',
      'Serve a live dashboard of the run on 127.0.0.1 (address printed; needs @suture/reporter-html)',
    )
    .option('--open', 'With --ui: open the dashboard in a browser')
    .example('suture run --fix')
    .example('suture run --changed origin/main')
    .example('suture run --no-block --reporter junit')
    .example('suture run py --fixer hints --reporter console --reporter junit')
    .action(async (projects: string[], flags: RunFlags) => {
      code = await (await import('./commands/run.js')).runCommand(projects, flags);
    });
  // cac gives every --no-x option a default of true, which its help prints as "(default: true)"
  // after "--no-heal"; an absent flag already means "heal".
  for (const option of run.options) if (option.negated) option.config.default = undefined;
  cli
    .command(
      'init',
      'Detect pytest, CMake/CTest, Jest and third-party runner projects and write suture.config.json',
    )
    .option(
      '--force',
      'Overwrite an existing suture.config.json (its settings and matching projects are kept)',
    )
    .option('--include-submodules', 'Look inside git submodules too')
    .action(async (flags: InitFlags) => {
      code = await (await import('./commands/init.js')).initCommand(flags);
    });
  cli
    .command('doctor', 'Check toolchains, plugins and fixer credentials')
    .option('--config <file>', 'Config file')
    .action(async (flags: { config?: string }) => {
      code = await (await import('./commands/doctor.js')).doctorCommand(flags);
    });
  cli
    .command('recover', "Restore the working tree from an interrupted run's journal")
    .option('--config <file>', 'Config file (its folder is the repository root)')
    .action(async (flags: { config?: string }) => {
      code = await (await import('./commands/recover.js')).recoverCommand(flags);
    });
  cli
    .command('report [runId]', 'Re-render the reports of an earlier run (the latest by default)')
    .option('--config <file>', 'Config file')
    .option('--reporter <name>', 'Reporter to render with (repeatable; default: all built-ins but json)')
    .action(async (runId: string | undefined, flags: { config?: string; reporter?: string | string[] }) => {
      code = await (await import('./commands/report.js')).reportCommand(runId, flags);
    });
  cli
    .command(
      'merge <...runs>',
      'Merge the reports of run folders (shards, Nx tasks) into one report.json, JUnit, Markdown and fixes.patch',
    )
    .option('--out <dir>', 'Folder for the merged reports (default: a new run folder under .suture/runs)')
    .option('--reporter <name>', 'Reporter to render with (repeatable; default: every built-in)')
    .option('--config <file>', 'Config file: its project order and runs folder')
    .option('--json', 'Print the merged JSON report on stdout (human output goes to stderr)')
    .example('suture merge shard-*/ --json > report.json')
    .action(async (runs: string[], flags: MergeFlags) => {
      code = await (await import('./commands/merge.js')).mergeCommand(runs, flags);
    });
  cli
    .command(
      'generate <kind> [...targets]',
      'Generate tests: `api` writes a healed pytest suite from an OpenAPI document, with a bug report; `tests` writes unit tests of the targets and keeps those that compile, pass and add coverage',
    )
    .option('--spec <file>', 'api: the OpenAPI 2.0/3.0/3.1 document, JSON or YAML (required)')
    .option('--rules <file>', 'api: business rules (Markdown or text): business mode, with an LLM fixer')
    .option('--data <file>', 'api: test data (CSV): complete mode, columns matched to parameters')
    .option('--base-url <url>', 'api: where the service answers (required)')
    .option('--server <command>', 'api: a shell command that starts the service; stopped at the end')
    .option('--out <dir>', 'api: folder of the generated suite and its reports (default: api-tests)')
    .option('--fixer <name>', 'api: an LLM fixer for business and complete modes: claude or openai')
    .option('--config <file>', 'api: a suture config whose fixers, budget and secrets to use')
    .option('--seed <n>', 'api: seed of the generated data (default 1)')
    .option('--auth-env <name>', 'api: environment variable holding the bearer token (default API_TOKEN)')
    .option('--max-attempts <n>', 'api: attempts per failure group (default 3)')
    .option('--load', 'api: load-test the endpoints whose tests passed, with autocannon')
    .option('--load-duration <s>', 'api: seconds per endpoint (default 5)')
    .option('--load-connections <n>', 'api: concurrent connections (default 10)')
    .option('--load-rate <n>', 'api: requests per second per connection (default: as fast as it goes)')
    .option('--load-max-p99 <ms>', 'api: fail when an endpoint p99 latency exceeds this')
    .option('--load-max-error-rate <r>', 'api: fail when errors and non-2xx exceed this share (0..1)')
    .option(
      '--generator <plugin>',
      'tests: claude or openai (that LLM fixer of the config writes the tests, through @suture/generator-llm), llm (the first LLM fixer of the config), or a generator plugin (package or path)',
    )
    .option('--generator-options <json>', "tests: the generator's options as a JSON object")
    .option('--project <name>', 'tests: the project of the targets (default: the one holding the first)')
    .option('--no-auto-run', 'tests: write the generated files without building, running or filtering them')
    .option('--max-fix-attempts <n>', 'tests: heals per generated file (default 2)')
    .option('--flake-runs <n>', 'tests: runs in a row a kept test must pass (default 3)')
    .option('--generations <n>', 'tests: generation attempts, each told what is still uncovered (default 2)')
    .option('--rollback <strategy>', 'tests: restoreSnapshot (default), gitCheckout or manual')
    .option('--json', 'tests: print the auto-run report on stdout')
    .example('suture generate api --spec openapi.yaml --base-url http://127.0.0.1:8000')
    .example('suture generate tests src/ops.py::clamp --generator claude')
    .example(
      'suture generate api --spec openapi.yaml --rules prd.md --data cases.csv --fixer claude --server "python app.py" --base-url http://127.0.0.1:8000 --load',
    )
    .action(async (kind: string, targets: string[], flags: Record<string, unknown>) => {
      code = await (await import('./commands/generate.js')).generateCommand(kind, { ...flags, targets });
    });
  cli
    .command(
      'autorun',
      'Run your own test generator, then build, run, heal and keep only the generated tests that compile, pass and add coverage',
    )
    .option('--after <command>', 'The shell command that generates the tests')
    .option('--generated <glob>', 'Files the command writes, relative to the project (repeatable)')
    .option('--target <file>', 'Source file whose coverage the tests must raise (repeatable)')
    .option('--project <name>', 'The project (default: the one holding the first target)')
    .option('--fixer <name>', 'Heal with only this fixer from the configured ladder (repeatable)')
    .option('--max-fix-attempts <n>', 'Heals per generated file (default 2)')
    .option('--flake-runs <n>', 'Runs in a row a kept test must pass (default 3)')
    .option('--rollback <strategy>', 'restoreSnapshot (default), gitCheckout or manual')
    .option('--config <file>', 'Config file')
    .option('--json', 'Print the auto-run report on stdout')
    .example(`suture autorun --after "python gen.py" --generated 'tests/gen/**' --target src/ops.py`)
    .action(async (flags: Record<string, unknown>) => {
      code = await (await import('./commands/autorun.js')).autorunCommand(flags as AutorunCommandFlags);
    });
  cli
    .command(
      'ui',
      'Serve the earlier runs of .suture/runs (reports, files, trends) on 127.0.0.1 until Ctrl-C',
    )
    .option('--port <n>', 'Port to listen on (default: a free one)')
    .option('--open', 'Open the page in a browser')
    .option('--config <file>', 'Config file: its folder and runs folder')
    .action(async (flags: UiCommandFlags) => {
      code = await (await import('./commands/ui.js')).uiCommand(flags);
    });
  cli
    .command(
      'heal [description]',
      'Propose a verified fix without writing the tree: prints JSON (fixed, candidates or unfixable, with a session id)',
    )
    .option('--session <id>', 'Continue this session: the fixer sees its earlier attempts')
    .option('--path <glob>', 'A path a patch may touch, relative to the repository root (repeatable)')
    .option('--project <name>', 'Gate only this project (repeatable)')
    .option('--test <id>', 'Run this test instead of the whole suite, as the runner names it (repeatable)')
    .option('--fixer <name>', 'Use this fixer from the configured ladder (repeatable)')
    .option('--max-attempts <n>', 'Attempts per failure group')
    .option(
      '--strategy <s>',
      'ladder (default) or each-fixer: one gate per fixer, every passing patch a candidate',
    )
    .option('--input <json>', 'The suture_heal arguments as JSON (- reads stdin), instead of the flags')
    .option('--quiet', 'No progress lines on stderr')
    .option('--config <file>', 'Config file')
    .example('suture heal "renamed total() to subtotal() in cart.py" --path "src/**"')
    .action(async (description: string | undefined, flags: HealFlags) => {
      code = await (await import('./commands/heal.js')).healCommand(description, flags);
    });
  cli
    .command('mcp', 'Serve suture to coding agents over MCP on stdio (needs @suture/mcp)')
    .option('--config <file>', 'Config file (default: suture.config.* found walking up)')
    .example('claude mcp add suture -- npx suture mcp')
    .action(async (flags: McpFlags) => {
      code = await (await import('./commands/mcp.js')).mcpCommand(flags);
    });
  cli
    .command(
      'tools',
      "Print suture's agent tools as OpenAI function definitions, or run one (needs @suture/mcp)",
    )
    .option('--format <format>', 'openai (strict JSON Schemas, the default) or mcp')
    .option('--call <name>', 'Run this tool and print its JSON answer')
    .option('--input <json>', 'With --call: the arguments as JSON, - for stdin, @file for a file')
    .option('--config <file>', 'Config file')
    .example('suture tools --format openai > tools.json')
    .example('suture tools --call suture_apply --input \'{"session_id":"s-20260101-abcd1234"}\'')
    .action(async (flags: ToolsFlags) => {
      code = await (await import('./commands/tools.js')).toolsCommand(flags);
    });
  cli.help();
  cli.version(version);

  try {
    cli.parse(['node', 'suture', ...argv], { run: false });
    if (cli.options.help || cli.options.version) return EXIT.green;
    if (!cli.matchedCommand) {
      const name = cli.args[0];
      process.stderr.write(name ? `suture: unknown command "${name}"\n\n` : '');
      cli.outputHelp();
      return EXIT.usage;
    }
    await cli.runMatchedCommand();
    return code;
  } catch (error) {
    const exit =
      (error as { name?: string }).name === 'CACError'
        ? EXIT.usage
        : (await import('./exit.js')).exitCodeFor(error);
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`suture: ${message}\n`);
    if (exit === EXIT.internal && error instanceof Error && process.env.SUTURE_LOG === 'debug')
      process.stderr.write(`${error.stack}\n`);
    if (exit === EXIT.usage && (error as { name?: string }).name === 'CACError')
      process.stderr.write('run `suture --help` for usage\n');
    return exit;
  }
}
