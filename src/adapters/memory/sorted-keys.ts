import type { SortKey } from '../../core/sort-keys.js';
import { SortedArray } from './sorted-array.js';

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
 * is a removal and an insertion, a list walks either way from a keyset position.
 */
export class SortedKeys {
  private readonly items = new SortedArray<KeyedId, KeyedId>(compare);

  add(item: KeyedId): void {
    this.items.add(item);
  }

  remove(item: KeyedId): void {
    this.items.remove(item, (found) => compare(found, item) === 0);
  }

  /** The ids in (key, id) order, `desc` reversed, strictly after `after` when given. */
  *walk(order: 'asc' | 'desc', after?: KeyedId): Generator<string> {
    const items = order === 'asc' ? this.items.ascending(after) : this.items.descending(after);
    for (const item of items) yield item.id;
  }
}
