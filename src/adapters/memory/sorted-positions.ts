import { SortedArray } from './sorted-array.js';

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
  private readonly items = new SortedArray<{ createdAt: string; id: string }, Position>(compare);

  get size(): number {
    return this.items.size;
  }

  add(position: Position): void {
    this.items.add(position);
  }

  remove(position: Position): void {
    this.items.remove(position, (found) => found === position);
  }

  /** Oldest first, starting strictly after the keyset position `after` when given. */
  oldestFirst(after?: { createdAt: string; id: string }): Generator<Position> {
    return this.items.ascending(after);
  }

  /** Newest first, starting strictly after the keyset position `after` when given. */
  newestFirst(after?: { createdAt: string; id: string }): Generator<Position> {
    return this.items.descending(after);
  }
}
