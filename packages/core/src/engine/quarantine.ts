import type { QuarantineEntry } from '../api/contracts/config.js';
import type { Failure } from '../api/contracts/failure.js';
import type { FailureReport } from '../api/contracts/report.js';

export type QuarantineMatch = NonNullable<FailureReport['quarantine']>[number];

/** Whether a test id matches an entry's pattern, where `*` matches any characters. */
export function matchesQuarantine(pattern: string, id: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(id);
}

/** The UTC day of `now` as YYYY-MM-DD: an entry counts through its `expires` day. */
const today = (now: Date): string => now.toISOString().slice(0, 10);

/**
 * How the quarantine list stands for a failure: `held` when every one of its tests matches an
 * entry that has not expired (it is reported, does not block and goes to no fixer), with the
 * entries that hold it; otherwise the expired entries its tests matched, which it names as it
 * blocks again. A failure without tests (a build error) is never quarantined.
 */
export function quarantineOf(
  failure: Pick<Failure, 'tests'>,
  entries: readonly QuarantineEntry[],
  now = new Date(),
): { held: boolean; matches: QuarantineMatch[] } {
  if (entries.length === 0 || failure.tests.length === 0) return { held: false, matches: [] };
  const day = today(now);
  const match = (e: QuarantineEntry): QuarantineMatch => ({
    test: e.test,
    owner: e.owner,
    expires: e.expires,
    expired: e.expires < day,
    ...(e.reason ? { reason: e.reason } : {}),
  });
  const live = entries.filter((e) => e.expires >= day);
  const held = failure.tests.every((id) => live.some((e) => matchesQuarantine(e.test, id)));
  if (held)
    return {
      held,
      matches: live.filter((e) => failure.tests.some((id) => matchesQuarantine(e.test, id))).map(match),
    };
  const expired = entries.filter(
    (e) => e.expires < day && failure.tests.some((id) => matchesQuarantine(e.test, id)),
  );
  return { held: false, matches: expired.map(match) };
}

/** The reason of a quarantined failure, and the warning of one whose entry expired. */
export function quarantineWords(matches: readonly QuarantineMatch[]): string {
  return matches
    .map(
      (m) =>
        `${m.test} (owner ${m.owner}, ${m.expired ? 'expired' : 'until'} ${m.expires}${m.reason ? `: ${m.reason}` : ''})`,
    )
    .join('; ');
}
