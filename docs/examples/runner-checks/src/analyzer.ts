import { createHash } from 'node:crypto';
import { access } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { API_VERSION, defineAnalyzer, type Analyzer, type FailureInput, type ScopeEntry } from '@suture/core';
import { checksTestModel } from './test-model.js';

const fingerprint = (...parts: string[]): string =>
  createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);

/** Project files a command names (`sh bin/calc.sh add 2 3` names bin/calc.sh). */
async function namedFiles(root: string, command: string): Promise<string[]> {
  const found: string[] = [];
  for (const word of command.split(/[\s"'$()=;|&<>]+/)) {
    if (!/^[\w./-]+\.\w+$/.test(word) || word.startsWith('/') || word.includes('..')) continue;
    const file = posix.normalize(word);
    if (
      await access(join(root, file)).then(
        () => true,
        () => false,
      )
    )
      found.push(file);
  }
  return [...new Set(found)];
}

/**
 * One failure per failing check, and one for a checks file that does not parse (it stops the
 * whole run). The scope of a check is its checks file and the project files its command names.
 */
export function checksAnalyzer(): Analyzer {
  return defineAnalyzer({
    name: 'suture-runner-checks/analyzer',
    apiVersion: API_VERSION,
    isTestFile: (file) => file.endsWith('.checks'),
    // the weakening guard reads checks files through this: a check made constant is refused
    testModel: checksTestModel,
    async analyze(result) {
      const failures: FailureInput[] = result.diagnostics.map((d) => ({
        id: `parse:${d.file}:${d.line}`,
        kind: 'collection',
        title: `${d.file}:${d.line}: ${d.message}`,
        tests: [],
        blocksAll: true,
        location: { file: d.file ?? '', ...(d.line ? { line: d.line } : {}) },
        evidence: d.message,
        fingerprint: fingerprint('parse', d.file ?? '', d.message),
        repairable: true,
        diagnostics: [d],
      }));
      for (const t of result.tests) {
        if (t.status === 'passed' || t.status === 'skipped') continue;
        failures.push({
          id: t.id,
          kind: t.status === 'timeout' ? 'timeout' : 'assertion',
          title: `${t.name ?? t.id}: ${t.message ?? t.status}`,
          tests: [t.id],
          location: { file: t.file ?? '', ...(t.line ? { line: t.line } : {}) },
          evidence: t.trace ?? t.message ?? t.status,
          // the same check failing the same way is the same failure, attempt after attempt
          fingerprint: fingerprint(t.id, t.status, t.message ?? ''),
          repairable: true,
        });
      }
      return failures;
    },
    async scope(failure, project) {
      const entries: Array<Omit<ScopeEntry, 'symbols' | 'depth'>> = [];
      if (failure.location?.file)
        entries.push({ file: failure.location.file, role: 'test', reasons: ['holds the check'] });
      // the evidence of a failed check starts with the command it ran: `$ sh bin/calc.sh sub 5 3`
      const command = /^\$ (.*)$/m.exec(failure.evidence)?.[1] ?? '';
      for (const file of await namedFiles(project.root, command))
        entries.push({ file, role: 'source', reasons: ['named by the command of the check'] });
      return { entries };
    },
  });
}
