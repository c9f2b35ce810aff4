import type { GateReport } from '../api/contracts/report.js';

/** The gate's one-line verdict, worded the same by every reporter. */
export function gateVerdict(report: Pick<GateReport, 'exitCode' | 'wouldBlock' | 'cancelled'>): string {
  if (report.cancelled) return 'cancelled';
  // exit 0 with failures left: a reader of the log must not take it for green
  if (report.wouldBlock) return 'failures remain; the gate did not block (blocking: false)';
  return report.exitCode === 0 ? 'green' : 'failures remain';
}
