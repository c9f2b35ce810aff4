import { describe, expect, it } from 'vitest';
import { codeForScript, escapeHtml, jsonForScript } from './embed.js';

describe('text inside <script>', () => {
  it('keeps JSON that holds markup, comments and line separators parseable and inert', () => {
    const value = {
      evidence: 'assert "</script><script>alert(1)</script>" == "<!-- x -->" & more',
      line: 'a\u2028b\u2029c',
    };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/<\/script|<!--|[<>&\u2028\u2029]/i);
    expect(JSON.parse(text)).toEqual(value);
  });
  it('escapes a closing tag in code without changing what the code means', () => {
    const code = 'const tag = "</script>"; const TAG = \'</SCRIPT >\'; const c = "<!--";';
    const safe = codeForScript(code);
    expect(safe).not.toMatch(/<\/script|<!--/i);
    const run = (src: string) => new Function(`${src}; return [tag, TAG, c];`)() as string[];
    expect(run(safe)).toEqual(run(code));
  });
  it('escapes text for HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;');
  });
});
