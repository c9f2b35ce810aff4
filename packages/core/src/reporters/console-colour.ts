/** ANSI colours for the console reporter, on only where a terminal will show them. */

export interface ColourStream {
  isTTY?: boolean;
}

/**
 * Whether to colour: NO_COLOR (set and not empty) turns colour off and FORCE_COLOR (not 0 or
 * false) turns it on, whatever the stream; otherwise a TTY whose TERM (or COLORTERM) says it has
 * colours. Off when piped, as supports-color and most CLIs decide.
 */
export function colourEnabled(stream: ColourStream, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  if (!stream.isTTY) return false;
  if (env.TERM === 'dumb') return false;
  if (env.COLORTERM) return true;
  if (process.platform === 'win32') return true;
  return /^(xterm|screen|tmux|vt100|vt220|rxvt)|color|ansi|cygwin|linux|kitty|alacritty/i.test(
    env.TERM ?? '',
  );
}

export type Paint = (text: string) => string;

export interface Palette {
  enabled: boolean;
  green: Paint;
  red: Paint;
  yellow: Paint;
  magenta: Paint;
  cyan: Paint;
  dim: Paint;
  bold: Paint;
}

const sgr =
  (open: number, close: number): Paint =>
  (text) =>
    text ? `\x1b[${open}m${text}\x1b[${close}m` : text;

const plain: Paint = (text) => text;

export function palette(enabled: boolean): Palette {
  if (!enabled)
    return {
      enabled,
      green: plain,
      red: plain,
      yellow: plain,
      magenta: plain,
      cyan: plain,
      dim: plain,
      bold: plain,
    };
  return {
    enabled,
    green: sgr(32, 39),
    red: sgr(31, 39),
    yellow: sgr(33, 39),
    magenta: sgr(35, 39),
    cyan: sgr(36, 39),
    dim: sgr(2, 22),
    bold: sgr(1, 22),
  };
}

/** The colour of a status, outcome or verdict word, the same in every line that shows one. */
export function toneOf(word: string, p: Palette): Paint {
  if (['completed', 'healed', 'passed', 'green'].includes(word)) return p.green;
  if (word === 'product-bug') return p.magenta;
  if (word === 'flaky' || word === 'skipped' || word === 'quarantined') return p.cyan;
  if (word === 'cancelled') return p.dim;
  if (['failed_after_repair', 'reverted', 'refused', 'repeated-patch', 'repeated-request'].includes(word))
    return p.yellow;
  return p.red;
}
