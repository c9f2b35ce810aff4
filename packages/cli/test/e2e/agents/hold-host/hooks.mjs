// Module hooks that hold the loading of suture's engine (@suture/core/host) until the file
// `release` appears in $SUTURE_TEST_HOLD_DIR, after writing `requested` there.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.SUTURE_TEST_HOLD_DIR;

export async function resolve(specifier, context, next) {
  if (dir && specifier === '@suture/core/host') {
    writeFileSync(join(dir, 'requested'), '');
    while (!existsSync(join(dir, 'release'))) await new Promise((r) => setTimeout(r, 20));
  }
  return next(specifier, context);
}
