import type { GateReport } from '../api/contracts/report.js';

/** One line on where the runs happened and what confined them, or undefined for an older report. */
export function isolationLine(report: GateReport): string | undefined {
  const i = report.isolation;
  if (!i) return undefined;
  const where = {
    overlay: 'a copy-on-write overlay',
    copy: 'a private copy',
    'in-place': 'the working tree',
  }[i.workspace];
  const confined =
    i.sandbox === 'off'
      ? 'no sandbox'
      : [
          i.network ? 'no network but their own loopback' : 'the machine network',
          i.envAllowlist ? 'an environment allowlist' : 'the whole environment',
          i.readOnly ? 'read-only outside the workspace' : 'writable outside the workspace',
          i.processes === 'pid-namespace' ? 'every process ended with its run' : 'process groups',
        ].join(', ');
  return `Patches were validated in ${where}; the runs had ${confined}.${i.notes.length > 0 ? ` ${i.notes.join('; ')}.` : ''}`;
}
