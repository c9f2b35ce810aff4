import { constants } from 'node:fs';
import { access } from 'node:fs/promises';

/** Whether `file` exists and, with `mode`, is accessible that way (`constants.X_OK`: runnable). */
export const exists = (file: string, mode = constants.F_OK): Promise<boolean> =>
  access(file, mode).then(
    () => true,
    () => false,
  );
