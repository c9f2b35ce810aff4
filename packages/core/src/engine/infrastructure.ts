/**
 * Test infrastructure: what decides which tests run and how their outcome is read (pytest hooks
 * and settings, Jest config, setup files and scripts, CTest test commands and pass criteria). A
 * fix that edits it can turn any failure green without touching the code under test, so the
 * guard refuses it unless `heal.allowTestWeakening` says otherwise.
 */
const SETTING = 'heal.allowTestWeakening';

/** Files that are nothing but test infrastructure: never in a fix's scope by default. */
const WHOLE = [
  /(?:^|\/)pytest\.ini$/,
  /(?:^|\/)(?:jest|vitest)\.config\.[cm]?[jt]s(?:on)?$/,
  /(?:^|\/)(?:jest\.setup|setupTests|setup-tests|jest-setup)(?:\.[\w-]+)*\.[cm]?[jt]sx?$/,
  /(?:^|\/)CTestTestfile\.cmake$/,
  /(?:^|\/)CTestCustom\.cmake$/,
];

export function isInfrastructureFile(file: string): boolean {
  return WHOLE.some((re) => re.test(file));
}

/** pytest hooks (collection, run, report), each with its body. */
function pytestHooks(text: string): string[] {
  return [
    ...text.matchAll(
      /^([ \t]*)(?:@[^\n]*\n\1)*(?:async\s+)?def\s+pytest_\w+[^]*?(?=\n(?!\1[ \t]|\s*\n)|$)/gm,
    ),
  ].map((m) => m[0].trim());
}

/** A section of an ini or toml file (`[pytest]`, `[tool:pytest]`, `[tool.pytest.ini_options]`). */
function section(text: string, names: RegExp): string {
  const m = new RegExp(`^\\[(?:${names.source})\\][^]*?(?=^\\[|$(?![^]))`, 'm').exec(text);
  return m?.[0].trim() ?? '';
}

/** CMake commands that register tests or set how they pass, in full (arguments may span lines). */
function cmakeTestCommands(text: string): string[] {
  const code = text.replace(/#[^\n]*/g, '');
  const out: string[] = [];
  const re =
    /\b(add_test|set_tests_properties|set_property|gtest_discover_tests|gtest_add_tests|catch_discover_tests)\s*\(/gi;
  for (const m of code.matchAll(re)) {
    let depth = 0;
    let end = m.index + m[0].length - 1;
    for (; end < code.length; end++) {
      if (code[end] === '(') depth++;
      else if (code[end] === ')' && --depth === 0) break;
    }
    const command = code.slice(m.index, end + 1).replace(/\s+/g, ' ');
    if (m[1]!.toLowerCase() !== 'set_property' || /\bTEST\b/.test(command)) out.push(command);
  }
  return out;
}

function jsonKeys(text: string | undefined, keys: readonly string[]): string {
  try {
    const data = JSON.parse(text ?? '{}') as Record<string, unknown>;
    return JSON.stringify(keys.map((k) => data[k] ?? null));
  } catch {
    return text ?? '';
  }
}

const same = (a: readonly string[], b: readonly string[]): boolean => a.join('\n') === b.join('\n');

/** Why an edit changes test infrastructure, naming what it touched and the setting that allows it; undefined otherwise. */
export function infrastructureEdit(
  file: string,
  before: string | undefined,
  after: string,
): string | undefined {
  const old = before ?? '';
  const why = (what: string): string =>
    `${file}: the edit changes ${what}, test infrastructure that decides which tests run or how they pass; set ${SETTING} to allow it`;
  if (isInfrastructureFile(file)) return why('the whole file');
  const base = file.split('/').pop()!;
  if (base === 'conftest.py' && !same(pytestHooks(old), pytestHooks(after)))
    return why('a pytest hook (def pytest_...)');
  if (
    /\.py$/.test(base) &&
    !/^conftest\.py$/.test(base) &&
    pytestHooks(after).length > pytestHooks(old).length
  )
    return why('a pytest hook (def pytest_...)');
  if (base === 'tox.ini' && section(old, /pytest/) !== section(after, /pytest/))
    return why('its [pytest] section');
  if (base === 'setup.cfg' && section(old, /tool:pytest/) !== section(after, /tool:pytest/))
    return why('its [tool:pytest] section');
  if (
    base === 'pyproject.toml' &&
    section(old, /tool\.pytest[\w.]*/) !== section(after, /tool\.pytest[\w.]*/)
  )
    return why('its [tool.pytest] section');
  if (
    base === 'package.json' &&
    jsonKeys(before, ['scripts', 'jest']) !== jsonKeys(after, ['scripts', 'jest'])
  )
    return why('its "scripts" or "jest" settings');
  if (/^CMakeLists\.txt$|\.cmake$/.test(base) && !same(cmakeTestCommands(old), cmakeTestCommands(after)))
    return why('a CTest command (add_test, set_tests_properties: PASS_REGULAR_EXPRESSION, WILL_FAIL, ...)');
  return undefined;
}
