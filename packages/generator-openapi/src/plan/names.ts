/** `users` -> `user`, `categories` -> `category`, `addresses` -> `address`. */
export function singular(word: string): string {
  if (/ies$/i.test(word)) return word.replace(/ies$/i, 'y');
  if (/(ss|sh|ch|x|z)es$/i.test(word)) return word.replace(/es$/i, '');
  if (/ses$/i.test(word)) return word.replace(/es$/i, '');
  if (/s$/i.test(word) && !/ss$/i.test(word)) return word.replace(/s$/i, '');
  return word;
}

/** Lower case, no separators: `user_id`, `userId` and `UserID` all read `userid`. */
export function flat(name: string): string {
  return name.replace(/[^A-Za-z0-9]/g, '').toLowerCase();
}

/** The resource a field names by its `Id` suffix: `userId`, `user_id`, `userID` -> `user`. */
export function idStem(field: string): string | undefined {
  const m = /^(.+?)[_-]?(?:id|Id|ID)$/.exec(field);
  return m && m[1] ? flat(m[1]) : undefined;
}

/** Fields that name a user under another role. */
export const USER_ROLES = new Set([
  'creator',
  'owner',
  'author',
  'customer',
  'buyer',
  'seller',
  'assignee',
  'member',
  'createdby',
  'updatedby',
  'requester',
  'reporter',
]);

/** Levenshtein similarity of two names, 0..1. */
export function similarity(a: string, b: string): number {
  const x = flat(a);
  const y = flat(b);
  if (!x.length || !y.length) return 0;
  const row = Array.from({ length: y.length + 1 }, (_, i) => i);
  for (let i = 1; i <= x.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const cur = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (x[i - 1] === y[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return 1 - row[y.length]! / Math.max(x.length, y.length);
}

/** A Python identifier made from a name: `get users {id}` -> `get_users_id`. */
export function snake(name: string): string {
  const s = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  return /^[0-9]/.test(s) ? `_${s}` : s || 'x';
}
