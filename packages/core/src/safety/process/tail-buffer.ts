/** Keeps the last `limit` bytes (approximately, by UTF-16 length) of a stream of text. */
export class TailBuffer {
  private chunks: string[] = [];
  private size = 0;
  totalBytes = 0;

  constructor(private readonly limit: number) {}

  push(text: string): void {
    this.totalBytes += Buffer.byteLength(text);
    if (text.length >= this.limit) {
      this.chunks = [text.slice(text.length - this.limit)];
      this.size = this.limit;
      return;
    }
    this.chunks.push(text);
    this.size += text.length;
    while (this.size > this.limit && this.chunks.length > 1) {
      const first = this.chunks[0]!;
      const excess = this.size - this.limit;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.slice(excess);
        this.size -= excess;
      }
    }
  }

  toString(): string {
    const text = this.chunks.join('');
    if (this.totalBytes <= Buffer.byteLength(text)) return text;
    // The cut starts at a line: a line's tail (the end of a token it printed) would no longer
    // look like the secret it is, and the redactors go by the look of it.
    const nl = text.indexOf('\n');
    const whole = nl >= 0 && nl < text.length - 1 ? text.slice(nl + 1) : text;
    return `[... output truncated to the last ${this.limit} characters ...]\n${whole}`;
  }
}
