import { resolve } from 'node:path';
import type { Diagnostic, FixIt } from '@suture/core';
import { projectPath } from './metadata.js';

/** One span of a rustc diagnostic, as `--message-format=json` prints it. */
interface RustcSpan {
  file_name: string;
  line_start: number;
  line_end: number;
  column_start: number;
  column_end: number;
  is_primary: boolean;
  label?: string | null;
  suggested_replacement?: string | null;
  suggestion_applicability?: string | null;
}

interface RustcMessage {
  message: string;
  code?: { code: string } | null;
  level: string;
  spans: RustcSpan[];
  children: RustcMessage[];
  rendered?: string | null;
}

/** The applicability rustc gives a suggestion it is sure of: only these are applied unreviewed. */
export const MACHINE_APPLICABLE = 'MachineApplicable';
const MAX_RAW = 4000;

export interface CargoArtifact {
  /** The test binary cargo built, when this artifact is one. */
  executable?: string;
  kind: string;
  name: string;
  src: string;
}

export type CargoLine =
  | { type: 'diagnostic'; diagnostic: Diagnostic }
  | { type: 'artifact'; artifact: CargoArtifact }
  | { type: 'build-finished'; success: boolean }
  | { type: 'other' };

/** Where rustc's paths are read from: the workspace root, as cargo runs rustc there. */
export interface PathBase {
  projectRoot: string;
  workspaceRoot: string;
}

const where = (base: PathBase, file: string): string =>
  projectPath(base.projectRoot, resolve(base.workspaceRoot, file));

/** rustc's suggestions: machine-applicable ones as fix-its, the others as notes a reader can weigh. */
function suggestions(base: PathBase, msg: RustcMessage): { fixIts: FixIt[]; notes: Diagnostic['notes'] } {
  const fixIts: FixIt[] = [];
  const notes: Diagnostic['notes'] = [];
  for (const child of msg.children) {
    const spans = child.spans.filter((s) => s.suggested_replacement != null);
    if (spans.length === 0) {
      if (child.message) notes.push({ message: `${child.level}: ${child.message}` });
      continue;
    }
    for (const s of spans) {
      const applicability = s.suggestion_applicability ?? 'Unspecified';
      if (applicability === MACHINE_APPLICABLE)
        fixIts.push({
          file: where(base, s.file_name),
          line: s.line_start,
          column: s.column_start,
          endLine: s.line_end,
          endColumn: s.column_end,
          replacement: s.suggested_replacement!,
          description: `${child.message} (rustc: ${MACHINE_APPLICABLE})`,
        });
      else
        notes.push({
          message: `${child.level}: ${child.message}: \`${s.suggested_replacement}\` (rustc: ${applicability}, not applied unreviewed)`,
          file: where(base, s.file_name),
          line: s.line_start,
          column: s.column_start,
        });
    }
  }
  return { fixIts, notes };
}

/** A rustc message as a suture diagnostic: its primary span's place, its code, its suggestions. */
export function rustcDiagnostic(base: PathBase, msg: RustcMessage): Diagnostic | undefined {
  const severity =
    msg.level === 'error' || msg.level.startsWith('error')
      ? 'error'
      : msg.level === 'warning'
        ? 'warning'
        : undefined;
  if (!severity) return undefined;
  const primary = msg.spans.find((s) => s.is_primary) ?? msg.spans[0];
  const { fixIts, notes } = suggestions(base, msg);
  const symbol = /`([^`]+)`/.exec(msg.message)?.[1];
  return {
    source: 'rustc',
    severity,
    message: msg.message,
    ...(primary
      ? { file: where(base, primary.file_name), line: primary.line_start, column: primary.column_start }
      : {}),
    ...(msg.code?.code ? { code: msg.code.code } : {}),
    ...(symbol ? { symbol } : {}),
    notes: [
      ...msg.spans
        .filter((s) => !s.is_primary && s.label)
        .map((s) => ({
          message: s.label!,
          file: where(base, s.file_name),
          line: s.line_start,
          column: s.column_start,
        })),
      ...notes,
    ],
    fixIts,
    tests: [],
    ...(msg.rendered ? { raw: msg.rendered.slice(0, MAX_RAW) } : {}),
  };
}

/** One line of cargo's `--message-format=json` output. */
export function parseCargoLine(base: PathBase, line: string): CargoLine {
  if (!line.startsWith('{"reason":')) return { type: 'other' };
  let m: {
    reason: string;
    message?: RustcMessage;
    success?: boolean;
    executable?: string | null;
    target?: { kind: string[]; name: string; src_path: string };
  };
  try {
    m = JSON.parse(line) as typeof m;
  } catch {
    return { type: 'other' };
  }
  if (m.reason === 'compiler-message' && m.message) {
    const diagnostic = rustcDiagnostic(base, m.message);
    return diagnostic ? { type: 'diagnostic', diagnostic } : { type: 'other' };
  }
  if (m.reason === 'compiler-artifact' && m.target)
    return {
      type: 'artifact',
      artifact: {
        ...(m.executable ? { executable: m.executable } : {}),
        kind: m.target.kind[0] ?? 'lib',
        name: m.target.name,
        src: projectPath(base.projectRoot, m.target.src_path),
      },
    };
  if (m.reason === 'build-finished') return { type: 'build-finished', success: m.success === true };
  return { type: 'other' };
}

/** The same diagnostic twice (a library built for its tests and for itself): kept once. */
export function diagnosticKey(d: Diagnostic): string {
  return `${d.severity}\0${d.file ?? ''}:${d.line ?? ''}:${d.column ?? ''}\0${d.code ?? ''}\0${d.message}`;
}
