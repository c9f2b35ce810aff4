/**
 * Is this project-relative path a Rust test file: an integration test (`tests/*.rs` of a package,
 * its helpers under `tests/` included), or a module file named `tests.rs` or under a `tests/`
 * folder of `src/`? Unit tests that sit in a `#[cfg(test)] mod tests { ... }` of a source file make
 * no test file: the file is code under test, and `checkTampering` guards its tests.
 */
export function isRustTestFile(file: string): boolean {
  if (!file.endsWith('.rs')) return false;
  return (
    /(?:^|\/)tests\/[^]*\.rs$/.test(file) || /(?:^|\/)tests\.rs$/.test(file) || /(?:^|\/)benches\//.test(file)
  );
}
