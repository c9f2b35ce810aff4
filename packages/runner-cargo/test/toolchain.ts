import { execFileSync } from 'node:child_process';

/**
 * Whether cargo runs here. Suites that need it are skipped without it, naming the install, except
 * where SUTURE_REQUIRE_TOOLCHAINS=1 (CI), where they run and fail.
 */
export function hasCargo(): boolean {
  if (process.env.SUTURE_REQUIRE_TOOLCHAINS === '1') return true;
  try {
    execFileSync('cargo', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    process.stderr.write('skipped: cargo is not installed (https://rustup.rs)\n');
    return false;
  }
}

/** cargo without the network: CI has no crates.io, and the fixtures use std only. */
process.env.CARGO_NET_OFFLINE = 'true';
