import type { AssertionFact, TestFact, TestFileModel } from '@suture/core';
import { CHECK } from './parse.js';

/** Commands that succeed whatever the code under test does. */
const ALWAYS = /^(?:true|:|exit\s+0|test\s+(\S+)\s+=\s+\1|\[\s+(\S+)\s+=\s+\2\s+\])$/;

/** A command whose exit status is thrown away: `cmd || true`, `cmd; exit 0`. */
const SWALLOWED = /(?:\|\|\s*(?:true|:|exit\s+0)|;\s*(?:true|:|exit\s+0))\s*$/;

/** What a command depends on: its words, the files and programs it names (shell keywords left out). */
function namesOf(command: string): string[] {
  const words = command.match(/[\w./-]+/g) ?? [];
  return [...new Set(words.filter((w) => !/^(?:test|sh|then|fi|if|do|done|\d+)$/.test(w)))];
}

function assertionOf(command: string): AssertionFact {
  const text = command.trim().replace(/\s+/g, ' ');
  const swallowed = SWALLOWED.test(text);
  return {
    text,
    names: namesOf(text),
    constant: ALWAYS.test(text),
    ...(swallowed ? { disarmed: 'its exit status is thrown away' } : {}),
  };
}

/**
 * What the weakening guard compares in a checks file: each check is a test whose one assertion is
 * its command. A check replaced by `true`, or whose command's status is thrown away, can no longer
 * fail; a check deleted or commented out is a deleted test. Other files are not read here.
 */
export function checksTestModel(file: string, content: string): TestFileModel | undefined {
  if (!file.endsWith('.checks')) return undefined;
  const tests: TestFact[] = [];
  for (const line of content.split('\n')) {
    const m = CHECK.exec(line);
    if (!m || line.trimStart().startsWith('#')) continue;
    tests.push({ name: m[1]!.trim(), assertions: [assertionOf(m[2]!)], skipped: false });
  }
  return { tests, mocks: [], redefinitions: [] };
}
