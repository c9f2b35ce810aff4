/**
 * Text that goes inside an HTML `<script>` or `<style>` element. The HTML parser ends such an
 * element at the first `</script` (or `</style`) whatever the script means, so data and code are
 * escaped where that sequence could appear: in JSON as \u003c, in code as `<\/`.
 */

/** JSON for a `<script type="application/json">`: parses back to the same value with JSON.parse. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Bundled code for an inline `<script>`: `</script` only occurs in its strings, where `<\/` reads the same. */
export function codeForScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

export function cssForStyle(css: string): string {
  return css.replace(/<\/(style)/gi, '<\\/$1');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
