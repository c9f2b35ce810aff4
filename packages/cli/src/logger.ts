import type { Logger } from '@suture/core';

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** Human log lines on stderr; `SUTURE_LOG=debug` shows plugin timings. */
export function createLogger(
  stream: NodeJS.WritableStream = process.stderr,
  level = process.env.SUTURE_LOG ?? 'warn',
): Logger {
  const min = Math.max(0, LEVELS.indexOf(level as (typeof LEVELS)[number]));
  const at =
    (l: (typeof LEVELS)[number]) =>
    (message: string): void => {
      if (LEVELS.indexOf(l) >= min) stream.write(`suture ${l}: ${message}\n`);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
