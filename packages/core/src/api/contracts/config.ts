import { z } from 'zod';
import { BudgetConfigSchema } from './budget.js';
import { EditableSchema } from './fix.js';
import { SecretsConfigSchema } from './secrets.js';

/** A plugin reference: `"pkg"`, `"./local-plugin.mjs"` or `["pkg", { ...options }]`. */
export const PluginSpecSchema = z.union([
  z.string().min(1).describe('Package name, alias or relative path of the plugin'),
  z
    .tuple([z.string().min(1), z.record(z.string(), z.unknown())])
    .describe('[plugin, options]: options are validated by the plugin itself'),
]);
export type PluginSpec = z.infer<typeof PluginSpecSchema>;

/** A quarantined test (or tests, by pattern) of `heal.quarantine`. */
export const QuarantineEntrySchema = z
  .object({
    test: z
      .string()
      .min(1)
      .describe(
        'Test id as the reports show it, or a pattern where * matches any characters (tests/test_net.py::*)',
      ),
    owner: z.string().min(1).describe('Who answers for it: a person or a team'),
    expires: z
      .string()
      .refine(
        (d) => /^\d{4}-\d{2}-\d{2}$/.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)),
        'a date written YYYY-MM-DD',
      )
      .describe('Last day (YYYY-MM-DD, UTC) the entry counts'),
    reason: z.string().optional().describe('Why it is quarantined: an issue link, a note'),
  })
  .strict();
export type QuarantineEntry = z.infer<typeof QuarantineEntrySchema>;

export const HealConfigSchema = z
  .object({
    maxAttempts: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(3)
      .describe('Attempts per failure group, across all fixers'),
    fixerTimeoutMs: z
      .number()
      .int()
      .min(1000)
      .default(600_000)
      .describe(
        "Wall-clock limit of one fixer's answer: a fixer still working then is stopped (its signal aborted) and the attempt ends fixer-error. The default is above an LLM fixer's own limit of one call (180 s, tried up to 3 times)",
      ),
    editable: EditableSchema.default('both').describe(
      'Which side a fix may edit: code under test, tests, or both',
    ),
    allowedPaths: z
      .array(z.string())
      .default(['**'])
      .describe('Globs (relative to the project root) a fix may write'),
    deniedPaths: z
      .array(z.string())
      .default([])
      .describe('Globs a fix may never write; .git, .suture, node_modules and virtualenvs are always denied'),
    allowTestWeakening: z
      .boolean()
      .default(false)
      .describe('Accept proposals that remove assertions or skip tests'),
    allowNewFiles: z.boolean().default(false).describe('Accept proposals that create files'),
    quarantine: z
      .array(QuarantineEntrySchema)
      .default([])
      .describe(
        'Tests known to fail, each with an owner and an expiry date: a failure whose tests are all quarantined is still run and reported but does not block and goes to no fixer; from the day after its expiry an entry no longer counts, and the failure blocks again with a message naming its owner',
      ),
    maxFilesPerAttempt: z.number().int().min(1).default(5),
    maxProposalBytes: z
      .number()
      .int()
      .min(1024)
      .default(2_097_152)
      .describe(
        'Largest proposal (all its edits together, in bytes) that is checked at all; a larger one is refused before anything is read or written and reported as its size and hash',
      ),
    scopeDepth: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(3)
      .describe('Call-graph depth followed from the failing test'),
    tokenBudget: z
      .number()
      .int()
      .min(500)
      .default(1000)
      .describe(
        'Token budget (about 4 characters a token) of the source sent to a fixer, spent on the likeliest functions first',
      ),
    flakyReruns: z
      .number()
      .int()
      .min(0)
      .max(5)
      .default(1)
      .describe('Re-runs of failed tests to detect flakiness'),
    regression: z
      .boolean()
      .default(true)
      .describe('Re-run the whole suite after heals and revert heals that broke it'),
  })
  .strict();
export type HealConfig = z.infer<typeof HealConfigSchema>;

export const ProjectConfigSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/, 'letters, digits, ".", "_" or "-"')
      .describe('Project name used in reports and on the command line'),
    root: z.string().min(1).describe('Project folder, relative to the config file'),
    runner: PluginSpecSchema.describe(
      'Runner plugin: "pytest", "ctest", "jest", a package name or a relative path',
    ),
    analyzer: PluginSpecSchema.optional().describe("Analyzer plugin; defaults to the runner's own analyzer"),
    timeoutMs: z.number().int().positive().optional().describe('Wall-clock limit of one run of this project'),
    heal: HealConfigSchema.partial()
      .optional()
      .describe('Overrides of the top-level heal settings for this project'),
  })
  .strict();
export type ProjectConfig = z.infer<typeof ProjectConfigSchema>;

export const ConfigSchema = z
  .object({
    $schema: z.string().optional(),
    projects: z.array(ProjectConfigSchema).min(1, 'at least one project is required'),
    fixers: z
      .array(PluginSpecSchema)
      .default(['@suture/fixer-hints'])
      .describe('Fixer ladder, asked in order'),
    heal: HealConfigSchema.default(HealConfigSchema.parse({})),
    reporters: z
      .array(PluginSpecSchema)
      .default(['console', 'json', 'junit', 'markdown', 'patch', 'bugs'])
      .describe('Built-in reporters by name, or reporter plugins'),
    concurrency: z.number().int().min(1).max(64).default(2).describe('Projects gated at once'),
    select: z
      .enum(['all', 'changed'])
      .default('all')
      .describe(
        'changed: run only the tests a change can reach (what `suture run --changed` does, against the merge base of HEAD with the default branch), from the selection record green runs leave under .suture/selection; a project without a usable record runs whole, and the report says why',
      ),
    record: z
      .boolean()
      .optional()
      .describe(
        'Green runs record which lines each test ran, for `select: "changed"`; the runner adds its coverage tracer to the run. Default: with select "changed", the runs of a whole suite for want of a usable record (which make the next record); else never',
      ),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .default(600_000)
      .describe('Default wall-clock limit of one test run'),
    outputDir: z
      .string()
      .default('.suture/runs')
      .describe('Where run folders are written, relative to the config file'),
    blocking: z
      .boolean()
      .default(true)
      .describe(
        'false: exit 0 even when failures remain after the repair rounds (usage and config errors still exit 2, internal errors 3); the report records what would have blocked. `suture run --no-block` does the same for one run',
      ),
    budget: BudgetConfigSchema.optional().describe(
      'What one run may spend on LLM calls, across every fixer and project; when a limit is reached the LLM fixers are skipped for the rest of the run',
    ),
    secrets: SecretsConfigSchema.optional().describe(
      'Secrets to mask in prompts, reports, logs and run folders beyond the built-in ones, and files an LLM fixer may not read',
    ),
    workspace: z
      .enum(['auto', 'overlay', 'copy', 'in-place'])
      .default('auto')
      .describe(
        "Where patches are validated. overlay: a copy-on-write view at the project's own path in a private namespace (Linux); copy: a private copy kept in sync; in-place: the working tree itself, journaled. auto: the overlay where the machine allows it, else a copy. Except in-place, your files are written only at the end of a --fix run, and only where they still hold what the fixer saw",
      ),
    sandbox: z
      .enum(['auto', 'strict', 'off'])
      .default('auto')
      .describe(
        'How the test runs that execute patched code are confined. strict: no network but their own loopback, an environment allowlist (no LLM keys, no secret-named variable), read-only outside the workspace, every process ended with its run; auto: strict where the machine allows it, else the environment allowlist alone; off: none of it',
      ),
    sandboxEnv: z
      .array(
        z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name (letters, digits and _)'),
      )
      .default([])
      .describe(
        "Environment variables passed into the sandbox by name, beyond PATH, the locale, the toolchains' own variables and what the runner sets; a name that marks a secret or configures an LLM service is refused when the config loads",
      ),
    sandboxHome: z
      .array(
        z
          .string()
          .regex(/^(~\/|[^/~])/, 'a path in your home: "~/.cache/pip" or ".cache/pip"')
          .refine((p) => !p.split('/').includes('..'), { message: 'may not leave your home (no "..")' }),
      )
      .default([])
      .describe(
        "Paths in your home that the sandboxed runs see, read-only, beyond the toolchains' own (pyenv, nvm, rustup, Cargo's registry, Go's module cache, ~/.local's packages, test browsers): the runs get a private, empty HOME and the rest of your home is hidden from them, so that a test cannot read ~/.aws, ~/.ssh, ~/.npmrc or ~/.netrc",
      ),
  })
  .strict();
export type Config = z.infer<typeof ConfigSchema>;
export type ConfigInput = z.input<typeof ConfigSchema>;
