/**
 * Lines of a test's output with bounded memory: the first `headBytes` and the last `tailBytes`
 * are kept, with a marker where the middle was dropped. A test printing gigabytes keeps the
 * lines that say where it started and how it ended.
 */
export class BoundedText {
  private head: string[] = [];
  private headSize = 0;
  private tail: string[] = [];
  /** Index of the first kept line of `tail`: lines before it are dropped (compacted in batches). */
  private from = 0;
  private tailSize = 0;
  private dropped = 0;

  constructor(
    private readonly headBytes = 128 * 1024,
    private readonly tailBytes = 384 * 1024,
  ) {}

  push(line: string): void {
    if (this.dropped === 0 && this.tail.length === 0 && this.headSize + line.length < this.headBytes) {
      this.head.push(line);
      this.headSize += line.length + 1;
      return;
    }
    this.tail.push(line);
    this.tailSize += line.length + 1;
    while (this.tailSize > this.tailBytes && this.tail.length - this.from > 1) {
      this.tailSize -= this.tail[this.from++]!.length + 1;
      this.dropped++;
    }
    if (this.from > 4096) {
      this.tail = this.tail.slice(this.from);
      this.from = 0;
    }
  }

  toString(): string {
    const middle = this.dropped > 0 ? [`[... ${this.dropped} lines dropped by suture ...]`] : [];
    return [...this.head, ...middle, ...this.tail.slice(this.from)].join('\n');
  }
}
