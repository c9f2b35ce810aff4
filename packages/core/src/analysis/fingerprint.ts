import { createHash } from 'node:crypto';
import type { FailureKind } from '../api/contracts/failure.js';

/** What makes two failures the same root cause. See `groupFailures` for the policy. */
export interface FailureSignature {
  kind: FailureKind;
  /** Exception or assertion type as the tool names it: `KeyError`, `TypeError`, `assert`. */
  type?: string;
  /** The exception's or assertion's own text, not the stack; normalised by the fingerprint. */
  message: string;
  /**
   * The innermost project frame where the failure was raised: file and enclosing symbol. Its line
   * is left out on purpose: a fix above it moves the line, not the cause.
   */
  frame?: { file: string; symbol?: string };
  /**
   * The code under test the failure's evidence points at (see `FailureCase.suspect`). When given,
   * it stands for the frame and the message, and an assertion's type is left out too: the same
   * suspect failing the same way is one cause, whatever the values and the matcher.
   */
  suspect?: ReadonlyArray<{ file: string; symbol?: string }>;
}

const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
const ADDRESS = /\b0x[0-9a-fA-F]+\b/g;
// a quote that opens after a non-word character and closes before one: `can't` is not a quote
const QUOTED = [/(?<!\w)'[^'\n]*'(?!\w)/g, /(?<!\w)"[^"\n]*"(?!\w)/g, /(?<!\w)`[^`\n]*`(?!\w)/g];
// an absolute path of two segments or more (temp folders, the project's own absolute root)
const ABSOLUTE_PATH = /(?<![\w.~/-])\/(?:[^\s/'"`():,;[\]{}<>]+\/)+[^\s/'"`():,;[\]{}<>]*/g;
const NUMBER = /(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.]*\w)/g;

/** Longest normalised message that counts: the rest of a long diff adds values, not a cause. */
const MAX_MESSAGE = 500;

/**
 * A failure message with its values taken out, so that the same cause reads the same across
 * parametrised cases, attempts and runs: colour codes dropped, addresses, quoted values, absolute
 * and temporary paths and numbers (line numbers and counts among them) replaced by placeholders,
 * whitespace collapsed.
 */
export function normalizeMessage(message: string): string {
  let text = message.replace(ANSI, '').replace(ADDRESS, '0x?');
  for (const quoted of QUOTED) text = text.replace(quoted, (q) => `${q[0]}?${q[0]}`);
  return text
    .replace(ABSOLUTE_PATH, '<path>')
    .replace(NUMBER, '?')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_MESSAGE);
}

/**
 * The stable fingerprint of a failure: equal for the same signature (kind, type, normalised
 * message, innermost project frame; or kind, type and suspect when the analyzer names one),
 * whatever the test that hit it and the values it saw.
 */
export function failureFingerprint(signature: FailureSignature): string {
  if (signature.suspect && signature.suspect.length > 0) {
    const suspects = [...new Set(signature.suspect.map((s) => `${s.file}\0${s.symbol ?? ''}`))].sort();
    const type = signature.kind === 'assertion' ? '' : (signature.type ?? '');
    return createHash('sha1')
      .update([signature.kind, type, 'suspect', ...suspects].join('\0'))
      .digest('hex')
      .slice(0, 16);
  }
  const parts = [
    signature.kind,
    signature.type ?? '',
    normalizeMessage(signature.message),
    signature.frame?.file ?? '',
    signature.frame?.symbol ?? '',
  ];
  return createHash('sha1').update(parts.join('\0')).digest('hex').slice(0, 16);
}
