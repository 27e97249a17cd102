/**
 * A unique rule's key: the workspace and the values of all but the last of the rule's fields,
 * spelled out (`prefix`), and the last field's value as it is (`last`).
 */
export interface UniqueKey {
  prefix: string;
  last: unknown;
}

/**
 * Which row holds each unique key: per prefix, the last value's holder. A key spelled out whole
 * for every row (an issue's workspace, project and number) was the largest string a stored issue
 * kept; here the rows of one project share their prefix, and an issue's number is the inner
 * map's key as it is. A Map tells 1 from "1", as the rule's values must be told apart.
 */
export class UniqueKeys {
  private readonly byPrefix = new Map<string, Map<unknown, string>>();

  /** How many prefixes hold a key (one with none is forgotten, so that deleted rows leave nothing). */
  get prefixes(): number {
    return this.byPrefix.size;
  }

  get(key: UniqueKey): string | undefined {
    return this.byPrefix.get(key.prefix)?.get(key.last);
  }

  set(key: UniqueKey, id: string): void {
    let holders = this.byPrefix.get(key.prefix);
    if (!holders) {
      holders = new Map();
      this.byPrefix.set(key.prefix, holders);
    }
    holders.set(key.last, id);
  }

  /** Forgets the key if `id` holds it (and the prefix once none of its keys is held). */
  release(key: UniqueKey, id: string): void {
    const holders = this.byPrefix.get(key.prefix);
    if (holders?.get(key.last) !== id) return;
    holders.delete(key.last);
    if (holders.size === 0) this.byPrefix.delete(key.prefix);
  }
}
