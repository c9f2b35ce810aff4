import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AuditEntry } from '../../api/contracts/autorun.js';
import { runProcess, type ProcessResult, type RunProcessOptions } from '../../safety/process/run-process.js';
import type { Redactor } from '../../safety/redact.js';

/**
 * Every command the auto-run starts and every file it writes, deletes or restores, in order.
 * Each entry is appended to `audit.jsonl` as it happens, so a run that is killed still leaves
 * the trail up to that moment; the report carries the same entries.
 */
export class AuditLog {
  readonly entries: AuditEntry[] = [];

  constructor(
    private readonly file: string,
    private readonly redact: Redactor,
  ) {}

  async record(entry: AuditEntry): Promise<void> {
    const clean = entry.kind === 'command' ? { ...entry, command: this.redact(entry.command) } : { ...entry };
    this.entries.push(clean);
    await mkdir(dirname(this.file), { recursive: true });
    await appendFile(this.file, `${JSON.stringify(clean)}\n`);
  }

  async fileEvent(
    kind: 'write' | 'delete' | 'restore',
    file: string,
    purpose: string,
    sha256?: string,
  ): Promise<void> {
    await this.record({
      kind,
      at: new Date().toISOString(),
      file,
      purpose,
      ...(sha256 ? { sha256 } : {}),
    });
  }

  /** Runs a command in its own process group and records it. */
  async run(
    file: string,
    args: readonly string[],
    options: RunProcessOptions,
    purpose: string,
  ): Promise<ProcessResult> {
    const at = new Date().toISOString();
    const result = await runProcess(file, args, options);
    await this.record({
      kind: 'command',
      at,
      command: result.command,
      cwd: options.cwd,
      exitCode: result.exitCode,
      durationMs: result.durationMs,
      purpose,
    });
    return result;
  }
}
