/**
 * Go standard-library packages by the name code uses them under (the last element of the import
 * path). A name two packages share (`rand`, `template`, `scanner`, ...) lists both, so it is never
 * guessed.
 */
const STD = [
  'bufio',
  'bytes',
  'cmp',
  'context',
  'crypto/rand',
  'crypto/sha256',
  'encoding/base64',
  'encoding/binary',
  'encoding/csv',
  'encoding/hex',
  'encoding/json',
  'errors',
  'flag',
  'fmt',
  'go/scanner',
  'hash/crc32',
  'html',
  'html/template',
  'io',
  'io/fs',
  'iter',
  'log',
  'log/slog',
  'maps',
  'math',
  'math/big',
  'math/bits',
  'math/rand',
  'math/rand/v2',
  'net',
  'net/http',
  'net/url',
  'os',
  'os/exec',
  'os/signal',
  'path',
  'path/filepath',
  'reflect',
  'regexp',
  'runtime',
  'slices',
  'sort',
  'strconv',
  'strings',
  'sync',
  'sync/atomic',
  'testing',
  'text/scanner',
  'text/template',
  'time',
  'unicode',
  'unicode/utf8',
];

/** The name code uses a package under: its path's last element, the one before a major version. */
const nameOf = (path: string): string => {
  const parts = path.split('/');
  return /^v\d+$/.test(parts.at(-1)!) ? parts.at(-2)! : parts.at(-1)!;
};

/** The standard-library import paths a package name may stand for (none when it is not one). */
export function stdPackages(name: string): string[] {
  return STD.filter((p) => nameOf(p) === name);
}
