import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GateReport } from '@suture/core';
import cargo from '@suture/runner-cargo';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gateWithHints } from './gate-support.js';

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

function hasCargo(): boolean {
  if (process.env.SUTURE_REQUIRE_TOOLCHAINS === '1') return true;
  try {
    execFileSync('cargo', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    process.stderr.write('skipped: cargo is not installed (https://rustup.rs)\n');
    return false;
  }
}

/** The gate with the hints fixer alone over a copy of a std-only crate, offline. */
async function heal(name: string): Promise<{ root: string; report: GateReport }> {
  const root = await mkdtemp(join(tmpdir(), `suture-hints-rust-${name}-`));
  temps.push(root);
  await cp(fileURLToPath(new URL(`../fixtures/rust/${name}`, import.meta.url)), root, { recursive: true });
  commitAll(root, ['target/', '.suture/']);
  const runner = cargo({ env: { CARGO_NET_OFFLINE: 'true' } });
  return { root, report: await gateWithHints(root, name, runner, 180_000) };
}

describe.runIf(hasCargo())("rustc's suggestions through the gate, with real cargo", () => {
  it('applies a MachineApplicable suggestion (E0308: `.into()` widens a u32 to the u64 returned) and the build and test pass', async () => {
    const { root, report } = await heal('into');
    const failure = report.projects[0]!.failures[0]!;
    expect(failure.failure).toMatchObject({ kind: 'build', location: { file: 'src/lib.rs', line: 4 } });
    expect(failure.outcome).toBe('healed');
    expect(failure.attempts[0]!.rationale).toMatch(
      /applied rustc's machine-applicable suggestions: E0308 mismatched types/,
    );
    expect(await readFile(join(root, 'src/lib.rs'), 'utf8')).toContain('    n.into()\n');
    expect(report.exitCode).toBe(0);
  });

  it('never applies a MaybeIncorrect suggestion (E0425: rustc guesses `counter` for `countr`): the failure goes to the next fixer with the candidate', async () => {
    const { root, report } = await heal('typo');
    const failure = report.projects[0]!.failures[0]!;
    expect(failure.failure.kind).toBe('build');
    // the runner keeps the guess as a note, never as a fix-it
    expect(failure.failure.diagnostics[0]!.fixIts).toEqual([]);
    expect(failure.failure.diagnostics[0]!.notes.map((n) => n.message).join('\n')).toMatch(
      /`counter` \(rustc: MaybeIncorrect/,
    );
    expect(failure.outcome).toBe('unfixable');
    expect(failure.attempts[0]).toMatchObject({ verdict: 'unfixable' });
    expect(failure.reason).toMatch(
      /rustc gives no machine-applicable fix for src\/lib\.rs:4: cannot find value `countr`.*`counter`.*needs an LLM fixer/,
    );
    expect(await readFile(join(root, 'src/lib.rs'), 'utf8')).toContain('    countr\n');
    expect(report.exitCode).toBe(1);
  });
});
