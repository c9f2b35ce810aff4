import { relative } from 'node:path';
import { distinctNames, escapeRegex, testId as jsTestId } from '@suture/runner-jest/js-runner';
import type { VitestEvent } from './events.js';

export { escapeRegex, parseId, selectedNames, type TestPlace } from '@suture/runner-jest/js-runner';

/**
 * A Vitest test id: the shape of every JavaScript runner's, the full name as Vitest's reported
 * tasks join it (`outer > inner > adds`). The second and later test of one full name in one file
 * get an occurrence mark, ` #2`, ` #3`, in the order Vitest collected the file (see
 * `distinctNames`): `idName` is the full name with that mark, from `TestNames`.
 */
export function testId(
  file: string,
  names: readonly string[],
  project?: string,
  idName: string = names.join(' > '),
): string {
  return jsTestId(file, idName, project);
}

/** A test as an event names it: its file (absolute), project, titles and task id. */
export interface NamedTest {
  file: string;
  project?: string | undefined;
  names: readonly string[];
  id?: string | undefined;
}

/**
 * The full names that go into the ids of the tests Vitest collected, by task id: the collected
 * list of a file holds every test of it, those a name pattern skips too, so a run of a selection
 * gives a test the id the run of the whole suite gave it. A later collection of a file (the next
 * pass) takes the place of the earlier one.
 */
export class TestNames {
  private readonly byTask = new Map<string, string>();

  observe(e: VitestEvent): void {
    if (e.event !== 'collected') return;
    const names = distinctNames(e.tests.map((t) => t.names.join(' > ')));
    e.tests.forEach((t, i) => {
      if (t.id !== undefined) this.byTask.set(taskKey(e.file, e.project, t.id), names[i]!);
    });
  }

  /** The full name in the test's id: with its mark, or as it is when its task was not collected. */
  of(t: NamedTest): string {
    const known = t.id === undefined ? undefined : this.byTask.get(taskKey(t.file, t.project, t.id));
    return known ?? t.names.join(' > ');
  }

  /** The test's id, its file relative to the project root. */
  id(root: string, t: NamedTest): string {
    return testId(relativeFile(root, t.file), t.names, t.project, this.of(t));
  }
}

const taskKey = (file: string, project: string | undefined, id: string): string =>
  `${project ?? ''}\0${file}\0${id}`;

const relativeFile = (root: string, file: string): string => relative(root, file).split('\\').join('/');

/**
 * A test name pattern matching exactly these full names. Vitest matches its pattern against the
 * titles joined by single spaces, and the id joins them with ` > `: each ` > ` of an id stands for
 * a space between titles or for those characters inside a title.
 */
export function namePattern(fullNames: readonly string[]): string {
  const one = (n: string): string => n.split(' > ').map(escapeRegex).join('(?: | > )');
  return `^(?:${fullNames.map(one).join('|')})$`;
}
