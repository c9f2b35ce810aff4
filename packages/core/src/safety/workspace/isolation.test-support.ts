import { REQUIRE_TOOLCHAINS_ENV, type SkippableTest } from '../../testing/toolchain.js';
import { isolationSupport, type IsolationSupport } from '../sandbox/support.js';

/**
 * Skips the running test where this machine refuses private namespaces (or an overlay in them),
 * saying why; where SUTURE_REQUIRE_TOOLCHAINS=1 (CI) it fails instead, so a test that needs them
 * never passes without running.
 */
export async function requireIsolation(
  test: SkippableTest,
  need: { overlay?: boolean; network?: boolean } = {},
): Promise<IsolationSupport> {
  const support = await isolationSupport();
  const lacking = [
    ...(support.namespaces ? [] : ['private user and mount namespaces']),
    ...(need.overlay && !support.overlay ? ['an overlay mount in them'] : []),
    ...(need.network && !support.network ? ['a private network (iproute2 ip)'] : []),
  ];
  if (lacking.length === 0) return support;
  const missing = `this machine gives no ${lacking.join(', ')}: ${support.reasons.join('; ')}`;
  if (process.env[REQUIRE_TOOLCHAINS_ENV] === '1')
    throw new Error(`${missing}; ${REQUIRE_TOOLCHAINS_ENV}=1 requires everything a test uses`);
  process.stderr.write(`skipped: ${missing}\n`);
  test.skip(missing);
  return support;
}
