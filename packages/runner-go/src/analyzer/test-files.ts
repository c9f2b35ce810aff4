/** Is this project-relative path a Go test file (`_test.go`, or a file under `testdata/`)? */
export function isGoTestFile(file: string): boolean {
  return /_test\.go$/.test(file) || /(?:^|\/)testdata\//.test(file);
}
