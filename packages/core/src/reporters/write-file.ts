import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';

/** Resolves a reporter's output file: absolute as given, relative to the run folder otherwise. */
export function outputPath(runDir: string, file: string): string {
  return isAbsolute(file) ? file : join(runDir, file);
}

export async function writeOutput(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}
