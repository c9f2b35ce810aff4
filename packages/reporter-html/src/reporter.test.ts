import { describe, expect, it } from 'vitest';
import html from './reporter.js';

describe('the html reporter factory', () => {
  it('says which option is wrong and what it takes', () => {
    expect(() => html({ fiel: 'x.html' } as never)).toThrow(
      /invalid options: \(options\): Unrecognized key: "fiel"; the html reporter takes \{ "file": "report.html", "title": "..." \}/,
    );
    expect(() => html({ file: '' })).toThrow(/invalid options: file: /);
    expect(html({ file: 'out/page.html' }).name).toBe('@suture/reporter-html');
  });
});
