import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { REPO } from './cli-support.js';

/** The Jenkins xunit schema, as scripts/junit-xsd.sh puts it (from pytest's sdist on PyPI). */
export const JUNIT_XSD = join(REPO, '.tmp/junit-xsd/junit-10.xsd');

/** xmllint's verdict on a file against junit-10.xsd: '' when valid, else its complaints. */
export function schemaErrors(file: string): string {
  // fetched from PyPI on first use, as .ci/run does before the suite
  if (!existsSync(JUNIT_XSD)) execFileSync('bash', [join(REPO, 'scripts/junit-xsd.sh')], { stdio: 'pipe' });
  try {
    execFileSync('xmllint', ['--noout', '--schema', JUNIT_XSD, file], { stdio: 'pipe' });
    return '';
  } catch (error) {
    const e = error as { code?: string; stderr?: Buffer };
    if (e.code === 'ENOENT') throw new Error('xmllint is not installed: apt-get install libxml2-utils');
    return e.stderr?.toString() ?? String(error);
  }
}

export interface GitlabCase {
  suite: string;
  classname: unknown;
  name: unknown;
  file: unknown;
  time: unknown;
  status: 'failed' | 'error' | 'skipped' | 'success';
}

/**
 * Type names ActiveSupport's Hash.from_xml, which GitLab's parser reads the XML with, decodes or
 * refuses: an element with such a `type` stops being the failure text GitLab shows.
 */
const ACTIVE_SUPPORT_TYPES = new Set(
  'array hash file yaml symbol base64Binary binary date datetime integer float decimal boolean string'.split(
    ' ',
  ),
);

type Node = Record<string, unknown>;
const list = (v: unknown): Node[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]) as Node[];

/**
 * The test cases GitLab's JUnit parser (lib/gitlab/ci/parsers/test/junit.rb) finds: one
 * top-level `testsuites`, cases under any nesting of `testsuite`, each named by its suite, its
 * status from the presence of a `failure`, `error` or `skipped` child, its file from the case's
 * own `file` attribute. Throws on what would make GitLab drop the report or a failure's text.
 */
export function gitlabCases(xml: string): GitlabCase[] {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml) as Node;
  if (!doc.testsuites) throw new Error('GitLab reads one top-level <testsuites>');
  const out: GitlabCase[] = [];
  const walk = (suites: unknown): void => {
    for (const s of list(suites)) {
      for (const c of list(s.testcase)) {
        for (const key of ['failure', 'error', 'skipped'])
          for (const el of list(c[key]))
            if (typeof el === 'object' && ACTIVE_SUPPORT_TYPES.has(String(el.type)))
              throw new Error(`<${key} type="${String(el.type)}"> is decoded by ActiveSupport`);
        const status =
          'failure' in c ? 'failed' : 'error' in c ? 'error' : 'skipped' in c ? 'skipped' : 'success';
        out.push({
          suite: String(s.name),
          classname: c.classname,
          name: c.name,
          file: c.file,
          time: c.time,
          status,
        });
      }
      walk(s.testsuite);
    }
  };
  walk((doc.testsuites as Node).testsuite);
  return out;
}
