/**
 * Derives a short project key from a name, as Jira does: the initials of a multi-word name
 * (`Mobile App` → `MA`), or the first letters of a single word (`Apollo` → `APO`).
 */
export function deriveProjectKey(name: string): string {
  const words = name
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9 ]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  const letters = words.length > 1 ? words.map((w) => w[0]).join('') : (words[0] ?? '').slice(0, 3);
  const key = letters
    .toUpperCase()
    .replace(/^[0-9]+/, '')
    .slice(0, 6);
  return key.length >= 2 ? key : `P${key}X`.slice(0, 3).padEnd(2, 'X');
}

/** The first of KEY, KEY2, KEY3… that `taken` says is free. */
export async function firstFreeKey(base: string, taken: (key: string) => Promise<boolean>): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base.slice(0, 10 - String(n).length)}${n}`;
    if (!(await taken(candidate))) return candidate;
  }
}
