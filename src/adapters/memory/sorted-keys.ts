import type { SortKey } from '../../core/sort-keys.js';

/** A row's place in one sort order: its sort key, then its id. */
export interface KeyedId {
  key: SortKey;
  id: string;
}

/** Keys of one field are all numbers or all strings, so `<` orders them as SQL does. */
const compare = (a: KeyedId, b: KeyedId): number =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * Rows kept sorted by (sort key, id) ascending, as a database index on them: a change of the key
 * is a removal and an insertion (binary searches), a list walks either way from a keyset position.
 */
export class SortedKeys {
  private readonly items: KeyedId[] = [];

  /** The index of the first item not before `key`. */
  private lowerBound(key: KeyedId): number {
    let low = 0;
    let high = this.items.length;
    const last = this.items[high - 1];
    if (last === undefined || compare(last, key) < 0) return high;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(this.items[mid] as KeyedId, key) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  add(item: KeyedId): void {
    const at = this.lowerBound(item);
    if (at === this.items.length) this.items.push(item);
    else this.items.splice(at, 0, item);
  }

  remove(item: KeyedId): void {
    const at = this.lowerBound(item);
    const found = this.items[at];
    if (found && compare(found, item) === 0) this.items.splice(at, 1);
  }

  /** The ids in (key, id) order, `desc` reversed, strictly after `after` when given. */
  *walk(order: 'asc' | 'desc', after?: KeyedId): Generator<string> {
    if (order === 'asc') {
      let i = after ? this.lowerBound(after) : 0;
      const first = this.items[i];
      if (after && first && compare(first, after) === 0) i++;
      for (; i < this.items.length; i++) yield (this.items[i] as KeyedId).id;
    } else {
      for (let i = (after ? this.lowerBound(after) : this.items.length) - 1; i >= 0; i--) {
        yield (this.items[i] as KeyedId).id;
      }
    }
  }
}
