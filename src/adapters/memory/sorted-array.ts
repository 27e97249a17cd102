/**
 * Items kept in one order, as a database index keeps its entries: an insert or a removal is a
 * binary search and a splice (an append for an item after every other, the usual new row), and a
 * list walks either way from a keyset position. `K` is what a position is named by; the items
 * carry at least that.
 */
export class SortedArray<K, T extends K> {
  private readonly items: T[] = [];

  constructor(private readonly compare: (a: K, b: K) => number) {}

  get size(): number {
    return this.items.length;
  }

  /** The index of the first item not before `key`. */
  private lowerBound(key: K): number {
    let low = 0;
    let high = this.items.length;
    // The common case, an item after every other, needs no search.
    const last = this.items[high - 1];
    if (last === undefined || this.compare(last, key) < 0) return high;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.compare(this.items[mid] as T, key) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  add(item: T): void {
    const at = this.lowerBound(item);
    if (at === this.items.length) this.items.push(item);
    else this.items.splice(at, 0, item);
  }

  /** Removes the item at `item`'s place, when `same` says the one found there is it. */
  remove(item: T, same: (found: T) => boolean): void {
    const at = this.lowerBound(item);
    const found = this.items[at];
    if (found !== undefined && same(found)) this.items.splice(at, 1);
  }

  /** In order, starting strictly after the keyset position `after` when given. */
  *ascending(after?: K): Generator<T> {
    let i = after ? this.lowerBound(after) : 0;
    // lowerBound finds the first item not before `after`: skip `after` itself.
    const first = this.items[i];
    if (after && first && this.compare(first, after) === 0) i++;
    for (; i < this.items.length; i++) yield this.items[i] as T;
  }

  /** In reverse order, starting strictly after (below) the keyset position `after` when given. */
  *descending(after?: K): Generator<T> {
    for (let i = (after ? this.lowerBound(after) : this.items.length) - 1; i >= 0; i--) {
      yield this.items[i] as T;
    }
  }
}
