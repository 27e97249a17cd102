import type { LabelCount } from '../../core/port/index.js';
import { SortedArray } from './sorted-array.js';
import { type Position, SortedPositions } from './sorted-positions.js';

/** Code point order (UTF-8 byte order), as SQLite's BINARY and PostgreSQL's "C" collation sort text. */
export function codePointOrder(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** The distinct labels of a row: an issue may list one twice, and is counted once. */
const distinct = (labels: readonly string[] | undefined): string[] => [...new Set(labels ?? [])];

/**
 * One workspace's label index, as the databases' (workspace, label, issue) table: the rows
 * carrying each label in list order, and the labels carried by at least one row, sorted by name.
 */
export class LabelIndex {
  private readonly byLabel = new Map<string, SortedPositions>();
  private readonly names = new SortedArray<string, string>(codePointOrder);

  /** The rows carrying `label`, in list order (empty when none does). */
  rowsOf(label: string): SortedPositions {
    return this.byLabel.get(label) ?? new SortedPositions();
  }

  add(labels: readonly string[] | undefined, position: Position): void {
    for (const label of distinct(labels)) {
      let positions = this.byLabel.get(label);
      if (!positions) {
        positions = new SortedPositions();
        this.byLabel.set(label, positions);
        this.names.add(label);
      }
      positions.add(position);
    }
  }

  remove(labels: readonly string[] | undefined, position: Position): void {
    for (const label of distinct(labels)) {
      const positions = this.byLabel.get(label);
      if (!positions) continue;
      positions.remove(position);
      if (positions.size === 0) {
        this.byLabel.delete(label);
        this.names.remove(label, (found) => found === label);
      }
    }
  }

  /** Up to `limit` labels after `after` in name order, with their counts, and how many labels there are. */
  list(after: string | undefined, limit: number): { rows: LabelCount[]; total: number } {
    const rows: LabelCount[] = [];
    for (const name of this.names.ascending(after)) {
      if (rows.length >= limit) break;
      rows.push({ name, issueCount: this.rowsOf(name).size });
    }
    return { rows, total: this.names.size };
  }
}

/**
 * The positions of several lists merged in list order (newest first, or oldest first with
 * `asc`), each once, from strictly after `after`: the rows carrying any of several labels, read
 * from their indexes without gathering them first.
 */
export function* mergedPositions(
  lists: readonly SortedPositions[],
  order: 'asc' | 'desc',
  after?: { createdAt: string; id: string },
): Generator<Position> {
  const walks = lists.map((list) => (order === 'asc' ? list.oldestFirst(after) : list.newestFirst(after)));
  const heads = walks.map((walk) => walk.next());
  const before = (a: Position, b: Position) =>
    a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);
  for (;;) {
    let pick = -1;
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i] as IteratorResult<Position>;
      if (head.done) continue;
      const best = pick < 0 ? undefined : (heads[pick] as IteratorYieldResult<Position>).value;
      if (!best || (order === 'asc' ? before(head.value, best) : before(best, head.value))) pick = i;
    }
    if (pick < 0) return;
    const position = (heads[pick] as IteratorYieldResult<Position>).value;
    yield position;
    // The same row heads every list that holds it: move them all past it.
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i] as IteratorResult<Position>;
      if (!head.done && head.value === position) heads[i] = (walks[i] as Generator<Position>).next();
    }
  }
}
