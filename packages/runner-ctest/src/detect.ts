import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DetectedProject } from '@suture/core';

/** A folder whose CMakeLists.txt enables testing. */
export async function detectCtest(dir: string): Promise<DetectedProject | null> {
  const text = await readFile(join(dir, 'CMakeLists.txt'), 'utf8').catch(() => undefined);
  if (!text) return null;
  const hit =
    /\b(enable_testing|include\s*\(\s*CTest|gtest_discover_tests|add_test)\s*\(/i.exec(text) ??
    /include\s*\(\s*CTest\s*\)/i.exec(text);
  return hit ? { name: basename(dir), reason: `CMakeLists.txt calls ${hit[1] ?? 'include(CTest)'}` } : null;
}
