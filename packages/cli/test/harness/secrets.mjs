// Secrets: plants credentials of many kinds in the environment of a real `suture run --fix`, in
// what its tests print, in an assertion message and in a source file in the scope, then searches
// every byte suture wrote (stdout, stderr, the run folder, GITHUB_STEP_SUMMARY) and every prompt
// a fixer rendered from what the engine sent it (core's renderFixPrompt, recorded to a file).
// Shared by the vitest suite and bench/secrets.mjs.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { removeDir, runSuture, tempRepoDir } from './cli.mjs';

/** Deterministic filler of a given alphabet, so the planted values look like the real formats. */
function fill(seed, length, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789') {
  let x = seed;
  let out = '';
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out += alphabet[x % alphabet.length];
  }
  return out;
}
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const b64 = (seed, n) => fill(seed, n, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const jwt = (s) => `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${fill(s, 40)}.${fill(s + 1, 43)}`;
const pem = (s) =>
  `-----BEGIN RSA PRIVATE KEY-----\nMIIEow${b64(s, 58)}\n${b64(s + 1, 64)}\n-----END RSA PRIVATE KEY-----`;

/**
 * The kinds: `env` names the variable holding `value` in suture's environment (absent for
 * formats that only appear in output); `text` is a second value of the same format that appears
 * only in test output and source, where its format is all that gives it away. `secretPart` (and
 * `textSecretPart`) is the secret inside a larger string (the password of a URL).
 */
export function secretKinds() {
  return [
    {
      kind: 'Anthropic API key',
      env: 'ANTHROPIC_API_KEY',
      value: `sk-ant-api03-${fill(1, 64)}`,
      text: `sk-ant-api03-${fill(2, 64)}`,
    },
    {
      kind: 'OpenAI project key',
      env: 'OPENAI_API_KEY',
      value: `sk-proj-${fill(3, 48)}`,
      text: `sk-proj-${fill(4, 48)}`,
    },
    {
      kind: 'GitHub classic token',
      env: 'GITHUB_TOKEN',
      value: `ghp_${fill(5, 36)}`,
      text: `ghp_${fill(6, 36)}`,
    },
    {
      kind: 'GitHub fine-grained token',
      env: 'GH_FINE_GRAINED',
      value: `github_pat_11${fill(7, 20, UPPER)}_${fill(8, 59)}`,
      text: `github_pat_11${fill(9, 20, UPPER)}_${fill(10, 59)}`,
    },
    {
      kind: 'GitLab token',
      env: 'GITLAB_TOKEN',
      value: `glpat-${fill(11, 20)}`,
      text: `glpat-${fill(12, 20)}`,
    },
    {
      kind: 'Slack bot token',
      env: 'SLACK_BOT_TOKEN',
      value: `xoxb-1234567890-1234567890123-${fill(13, 24)}`,
      text: `xoxb-2234567890-2234567890123-${fill(14, 24)}`,
    },
    {
      kind: 'AWS access key id',
      env: 'AWS_ACCESS_KEY_ID',
      value: `AKIA${fill(15, 16, UPPER)}`,
      text: `AKIA${fill(16, 16, UPPER)}`,
    },
    { kind: 'AWS secret access key', env: 'AWS_SECRET_ACCESS_KEY', value: b64(17, 40) },
    {
      kind: 'Google API key',
      env: 'GOOGLE_API_KEY',
      value: `AIza${fill(18, 35)}`,
      text: `AIza${fill(19, 35)}`,
    },
    { kind: 'JWT', env: 'AUTH_JWT', value: jwt(20), text: jwt(21) },
    { kind: 'PEM private key', env: 'SSH_PRIVATE_KEY', value: pem(22), text: pem(23) },
    { kind: 'npm token', env: 'NPM_TOKEN', value: `npm_${fill(24, 36)}`, text: `npm_${fill(25, 36)}` },
    { kind: 'Hugging Face token', env: 'HF_TOKEN', value: `hf_${fill(26, 34)}`, text: `hf_${fill(27, 34)}` },
    {
      kind: 'Stripe live key',
      env: 'STRIPE_SECRET_KEY',
      value: `sk_live_${fill(28, 24)}`,
      text: `sk_live_${fill(29, 24)}`,
    },
    { kind: 'Bearer header', text: `Authorization: Bearer ${fill(30, 40)}`, secretPart: fill(30, 40) },
    {
      kind: 'password in a URL',
      env: 'DATABASE_URL',
      value: `postgres://app:${fill(31, 18)}@db.internal:5432/shop`,
      secretPart: fill(31, 18),
      text: `https://deploy:${fill(32, 18)}@git.example.com/repo.git`,
      textSecretPart: fill(32, 18),
    },
    { kind: 'DB_PASSWORD', env: 'DB_PASSWORD', value: fill(33, 22) },
    { kind: '*_SECRET', env: 'APP_CLIENT_SECRET', value: fill(34, 30) },
    { kind: '*_TOKEN', env: 'SESSION_TOKEN', value: fill(35, 32) },
    { kind: 'PGPASSWORD', env: 'PGPASSWORD', value: fill(36, 20) },
    // Credential files as code that read one prints it: only their form gives the values away.
    {
      kind: 'AWS credentials file',
      text: `[default]\naws_access_key_id = AKIA${fill(43, 16, UPPER)}\naws_secret_access_key = ${b64(44, 40)}`,
      textSecretPart: b64(44, 40),
    },
    {
      kind: 'netrc',
      text: `machine api.example.com login ci password ${fill(45, 20)}`,
      textSecretPart: fill(45, 20),
    },
    {
      kind: '.npmrc auth token',
      text: `//registry.npmjs.org/:_authToken=${fill(46, 36)}`,
      textSecretPart: fill(46, 36),
    },
    {
      kind: 'YAML settings',
      text: `database:\n  user: app\n  password: ${fill(47, 20)}`,
      textSecretPart: fill(47, 20),
    },
    // A password the source assigns, which the tests print bare.
    { kind: 'password literal in source', literal: `pw-${fill(48, 18)}` },
    {
      kind: 'Slack webhook URL',
      env: 'SLACK_WEBHOOK_URL',
      value: `https://hooks.slack.com/services/T${fill(37, 8, UPPER)}/B${fill(38, 10, UPPER)}/${fill(39, 24)}`,
      text: `https://hooks.slack.com/services/T${fill(40, 8, UPPER)}/B${fill(41, 10, UPPER)}/${fill(42, 24)}`,
    },
  ];
}

/** The strings whose presence anywhere is a leak: every planted value, and its secret part. */
export function needles(kinds) {
  const out = [];
  for (const k of kinds) {
    for (const [v, part] of [
      [k.value, k.secretPart],
      [k.text, k.textSecretPart ?? k.secretPart],
      [k.literal, undefined],
    ]) {
      if (!v) continue;
      const body = k.kind === 'PEM private key' ? v.split('\n')[2] : (part ?? v);
      out.push({ kind: k.kind, needle: body });
      // A redactor that masks all but the first or last characters still leaks: look for a tail too.
      if (body.length >= 24) out.push({ kind: k.kind, needle: body.slice(-16) });
    }
  }
  return out;
}

const RECORDER = `// A fixer that renders the real prompt (core's renderFixPrompt) from the request the engine sent
// and records it, with the raw request, before answering with the fix.
import { appendFileSync } from 'node:fs';
import { loadPromptTemplates, renderFixPrompt } from '@suture/core/llm';

export default function recorder(options) {
  const templates = loadPromptTemplates();
  return {
    name: 'prompt-recorder',
    apiVersion: 1,
    async propose(request) {
      const prompt = renderFixPrompt(request, { templates });
      appendFileSync(options.out, JSON.stringify({ system: prompt.system, user: prompt.user, request }) + '\\n');
      return { verdict: 'edits', rationale: 'fix the total', edits: [{ file: 'src/cart.mjs', search: 'return sum - 1;', replace: 'return sum;' }] };
    },
  };
}
`;

/** Writes the fixture: a failing test that prints every secret, and a source file that holds the format-only ones. */
async function writeFixture(root, kinds, promptsFile) {
  const put = async (rel, content) => {
    await mkdir(join(root, rel, '..'), { recursive: true });
    await writeFile(join(root, rel), content);
  };
  const textValues = kinds.filter((k) => k.text).map((k) => k.text);
  await put(
    'suture.config.json',
    JSON.stringify({
      projects: [
        { name: 'shop', root: 'shop', runner: './plugins/runner.mjs' },
        { name: 'py', root: 'py', runner: 'pytest' },
      ],
      fixers: [['./plugins/recorder.mjs', { out: promptsFile }]],
      heal: { flakyReruns: 1 },
      reporters: ['console', 'json', 'junit', 'markdown', 'patch', 'bugs'],
    }),
  );
  await put('plugins/runner.mjs', "export { scriptRunner as default } from '@suture/core/testing';\n");
  await put('plugins/recorder.mjs', RECORDER);
  // The credentials sit right above the line the fix changes, so they are in the diff's context.
  const literal = kinds.find((k) => k.literal).literal;
  await put(
    'shop/src/config.mjs',
    `export const CREDENTIALS = ${JSON.stringify(textValues, null, 2)};\n\nexport const DB_PASSWORD = ${JSON.stringify(literal)};\n`,
  );
  await put(
    'shop/src/cart.mjs',
    `import { CREDENTIALS } from './config.mjs';\n\nexport const FALLBACK_TOKEN = ${JSON.stringify(kinds.find((k) => k.kind === 'GitHub classic token').text)};\n\nexport function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i;\n  return sum - 1;\n}\n\nexport const count = () => CREDENTIALS.length;\n`,
  );
  const envNames = kinds.filter((k) => k.env).map((k) => k.env);
  await put(
    'shop/tests/cart.test.mjs',
    `import assert from 'node:assert/strict';
import { total } from '../src/cart.mjs';
import { CREDENTIALS, DB_PASSWORD } from '../src/config.mjs';

// Tests that print credentials: from the environment and from the code.
for (const name of ${JSON.stringify(envNames)}) console.log(name + '=' + process.env[name]);
for (const c of CREDENTIALS) console.error('using ' + c);
console.log('connecting with', DB_PASSWORD);
assert.equal(total([1, 2]), 3, 'total with token ' + CREDENTIALS[2] + ' and ' + process.env.OPENAI_API_KEY);
`,
  );
  // The same through the real pytest runner, whose raw event file holds everything printed.
  await put(
    'py/test_secrets.py',
    `import os\n\nCREDENTIALS = ${JSON.stringify(textValues)}\nDB_PASSWORD = ${JSON.stringify(literal)}\n\n\ndef test_secrets():\n    for name in ${JSON.stringify(envNames)}:\n        print(name + "=" + os.environ.get(name, ""))\n    for c in CREDENTIALS:\n        print("using", c)\n    print("connecting with", DB_PASSWORD)\n    assert os.environ["GITHUB_TOKEN"] == CREDENTIALS[2], "token mismatch " + os.environ["HF_TOKEN"]\n`,
  );
  await put(
    'shop/tests/other.test.mjs',
    `import assert from 'node:assert/strict';\nconsole.log('env dump', JSON.stringify(process.env));\nassert.ok(true);\n`,
  );
}

async function filesUnder(dir) {
  const out = [];
  const walk = async (d) => {
    for (const e of await readdir(d, { withFileTypes: true }).catch(() => [])) {
      const abs = join(d, e.name);
      if (e.isDirectory()) await walk(abs);
      else if (e.isFile()) out.push(abs);
    }
  };
  await walk(dir);
  return out;
}

/** Escaped forms a value takes in JSON and XML output. */
const forms = (s) => [
  ...new Set([
    s,
    JSON.stringify(s).slice(1, -1),
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
  ]),
];

/**
 * Runs the scenario and returns what was searched and every leak found (kind and where).
 */
export async function runSecretsScenario() {
  const kinds = secretKinds();
  const base = await tempRepoDir('secrets-');
  const root = join(base, 'repo');
  const promptsFile = join(base, 'prompts.jsonl');
  const summaryFile = join(base, 'step-summary.md');
  await writeFixture(root, kinds, promptsFile);
  const env = { GITHUB_STEP_SUMMARY: summaryFile, SUTURE_LOG: 'debug' };
  for (const k of kinds) if (k.env) env[k.env] = k.value;
  const run = await runSuture(['run', '--fix', '--json'], root, { env });
  const check = await runSuture(['run'], root, { env });
  const sources = [
    { where: 'stdout of suture run --fix --json', text: run.stdout },
    { where: 'stderr of suture run --fix --json', text: run.stderr },
    { where: 'stdout of suture run', text: check.stdout },
    { where: 'stderr of suture run', text: check.stderr },
    { where: 'GITHUB_STEP_SUMMARY', text: await readFile(summaryFile, 'utf8').catch(() => '') },
    {
      where: 'prompts and requests sent to the fixer',
      text: await readFile(promptsFile, 'utf8').catch(() => ''),
    },
  ];
  for (const file of await filesUnder(join(root, '.suture'))) {
    sources.push({
      where: file.slice(root.length + 1),
      text: (await readFile(file)).toString('latin1') + (await readFile(file, 'utf8')),
    });
  }
  const leaks = [];
  for (const { kind, needle } of needles(kinds)) {
    for (const s of sources) {
      if (forms(needle).some((f) => s.text.includes(f))) leaks.push({ kind, where: s.where });
    }
  }
  const prompts = sources[5].text.split('\n').filter(Boolean).length;
  const bytes = sources.reduce((n, s) => n + s.text.length, 0);
  const healed = (() => {
    try {
      return JSON.parse(run.stdout).totals.healed;
    } catch {
      return undefined;
    }
  })();
  const uniqueLeaks = [...new Map(leaks.map((l) => [`${l.kind}|${l.where}`, l])).values()];
  const result = {
    kinds: kinds.map((k) => k.kind),
    planted: needles(kinds).length,
    sources: sources.length,
    bytes,
    prompts,
    healed,
    exitCode: run.code,
    leaks: uniqueLeaks,
    leakedKinds: [...new Set(uniqueLeaks.map((l) => l.kind))],
  };
  if (uniqueLeaks.length === 0) await removeDir(base);
  else result.keptAt = base;
  return result;
}
