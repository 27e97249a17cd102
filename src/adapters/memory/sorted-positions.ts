/**
 * Where a row sits in list order. One object per stored row, shared by every index the row is in,
 * so an update that leaves the filter fields alone touches no index.
 */
export interface Position {
  readonly createdAt: string;
  readonly id: string;
  /** Insertion order, for "the first row" as a database's primary key would give it. */
  readonly seq: number;
}

/** Oldest first: (createdAt, id) ascending, the reverse of list order. */
const compare = (a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;

/**
 * Positions kept sorted oldest first, so that the usual insert (the newest row) is an append, a
 * lookup is a binary search, and a list walks backwards from the newest or from a keyset position.
 */
export class SortedPositions {
  private readonly items: Position[] = [];

  get size(): number {
    return this.items.length;
  }

  /** The index of the first item not older than `key` (binary search). */
  private lowerBound(key: { createdAt: string; id: string }): number {
    let low = 0;
    let high = this.items.length;
    // The common case, a row newer than every other, needs no search.
    const last = this.items[high - 1];
    if (last === undefined || compare(last, key) < 0) return high;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compare(this.items[mid] as Position, key) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  add(position: Position): void {
    const at = this.lowerBound(position);
    if (at === this.items.length) this.items.push(position);
    else this.items.splice(at, 0, position);
  }

  remove(position: Position): void {
    const at = this.lowerBound(position);
    if (this.items[at] === position) this.items.splice(at, 1);
  }

  /** Oldest first, starting strictly after the keyset position `after` when given. */
  *oldestFirst(after?: { createdAt: string; id: string }): Generator<Position> {
    let i = after ? this.lowerBound(after) : 0;
    // lowerBound finds the first item not older than `after`: skip `after` itself.
    const first = this.items[i];
    if (after && first && compare(first, after) === 0) i++;
    for (; i < this.items.length; i++) yield this.items[i] as Position;
  }

  /** Newest first, starting strictly after the keyset position `after` when given. */
  *newestFirst(after?: { createdAt: string; id: string }): Generator<Position> {
    for (let i = (after ? this.lowerBound(after) : this.items.length) - 1; i >= 0; i--) {
      yield this.items[i] as Position;
    }
  }
}
