import { fileDiff } from '../patch.js';

/** What a workspace's `apply` did to each file: the bytes the view had first and has now. */
export class ViewChanges {
  private readonly files = new Map<string, { before: Buffer | undefined; after: Buffer | undefined }>();

  /** Records a write; `before` is read only for a file not seen yet. */
  async record(
    file: string,
    after: Buffer | undefined,
    before: () => Promise<Buffer | undefined>,
  ): Promise<void> {
    const seen = this.files.get(file);
    if (seen) seen.after = after;
    else this.files.set(file, { before: await before(), after });
  }

  /** The files whose view bytes differ from the user's (as first seen). */
  changed(): string[] {
    return [...this.files]
      .filter(([, v]) => !same(v.before, v.after))
      .map(([f]) => f)
      .sort();
  }

  /** Every file written, changed back or not: a build may have compiled any of them. */
  written(): string[] {
    return [...this.files.keys()].sort();
  }

  diff(): string {
    return this.changed()
      .map((f) => {
        const v = this.files.get(f)!;
        return fileDiff(f, v.before?.toString('utf8'), v.after?.toString('utf8'));
      })
      .join('');
  }
}

function same(a: Buffer | undefined, b: Buffer | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.equals(b);
}

export function toBuffer(content: string | Buffer | undefined): Buffer | undefined {
  return content === undefined ? undefined : Buffer.isBuffer(content) ? content : Buffer.from(content);
}
