// A third-party reporter as a plain module: every hook appends a JSON line to `out` when it begins and one when it ends (relative to
// the config file); `throwIn` names a hook that throws instead.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

const HOOKS = [
  'onRunStart',
  'onProjectStart',
  'onTestResult',
  'onRoundEnd',
  'onAttemptStart',
  'onAttemptEnd',
  'onProjectEnd',
  'onRunEnd',
];

export default function recordReporter(options, context) {
  const out = join(context.configDir, options.out);
  const reporter = { name: 'record-reporter', apiVersion: 1 };
  for (const hook of HOOKS) {
    reporter[hook] = async (event) => {
      appendFileSync(out, `${JSON.stringify({ hook, begin: true })}\n`);
      // a slow hook: the next one must wait for it
      await new Promise((resolve) => setTimeout(resolve, 3));
      appendFileSync(out, `${JSON.stringify({ hook, exitCode: event?.exitCode })}\n`);
      if (hook === options.throwIn) throw new Error(`${hook} is not supported`);
    };
  }
  return reporter;
}
