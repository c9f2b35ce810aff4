import { StringDecoder } from 'node:string_decoder';
import { stripVTControlCharacters } from 'node:util';

/** A complete escape sequence: CSI, OSC (ended by BEL or ST), or a two-character escape. */
const ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\^_])/y;
/** How far back an unfinished escape is held for the next chunk (an OSC hyperlink carries a URL); further back it is stray. */
const MAX_ESCAPE = 512;

/**
 * Where an escape sequence that has not ended yet starts, or -1. The scan may start at any ESC
 * of the tail: the only ESC inside a sequence begins an OSC's ST terminator, itself complete.
 */
function unfinishedEscape(text: string): number {
  for (
    let i = text.indexOf('\x1b', Math.max(0, text.length - MAX_ESCAPE));
    i !== -1;
    i = text.indexOf('\x1b', ESCAPE.lastIndex)
  ) {
    ESCAPE.lastIndex = i;
    if (!ESCAPE.test(text)) return i;
  }
  return -1;
}

export interface PlainTextStream {
  write(chunk: Buffer | string): string;
  end(): string;
}

/**
 * Decodes one byte stream to text without ANSI escapes. Colour is taken out of what suture reads,
 * never switched off in the child's environment: `NO_COLOR` or `PY_COLORS` there would change
 * what the code under test prints and sees. Multi-byte characters and escape sequences split
 * across chunks are held back until their end arrives; bytes that are not UTF-8 become U+FFFD
 * instead of failing the run.
 */
export function plainTextStream(): PlainTextStream {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const strip = (text: string, final: boolean): string => {
    const all = pending + text;
    const cut = final ? -1 : unfinishedEscape(all);
    pending = cut === -1 ? '' : all.slice(cut);
    return stripVTControlCharacters(cut === -1 ? all : all.slice(0, cut));
  };
  return {
    write: (chunk) => strip(typeof chunk === 'string' ? chunk : decoder.write(chunk), false),
    end: () => strip(decoder.end(), true),
  };
}
