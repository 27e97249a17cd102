import { collectionDefinitions } from '../../core/families/collections.js';
import {
  type Collection,
  type CollectionName,
  type CollectionRows,
  type FilterMatch,
  fieldValue,
  type LabelMatch,
  type ListQuery,
  meetsFilter,
  meetsLabels,
  type Tally,
  UniqueViolation,
  VersionMismatch,
} from '../../core/port/index.js';
import { type SortKey, sortKeyOf } from '../../core/sort-keys.js';
import { storedJsonOf } from '../shared/stored-json.js';
import { LabelIndex, mergedPositions } from './label-index.js';
import { SortedKeys } from './sorted-keys.js';
import { type Position, SortedPositions } from './sorted-positions.js';
import { clone, type RecordUndo } from './undo.js';
import { type UniqueKey, UniqueKeys } from './unique-keys.js';

type Where = Partial<Record<string, FilterMatch>> | undefined;

/** At most this many issues of a label filter are read from its index and sorted, rather than walking a sort order. */
const fewLabelled = 4096;
type Fields = Record<string, unknown>;

/** A unique rule beyond the id: the fields whose values a row claims in its workspace, and the violation's name. */
export interface UniqueRule {
  fields: readonly string[];
  what: string;
  /** Fields of the rule not worth a value index of their own (unique within the others). */
  unindexed: readonly string[];
}

/**
 * One workspace's indexes: every row in list order, the rows of each value of each filter field,
 * the rows where each of the collection's `notNull` fields is set, and every row in the order of
 * each of its sort fields.
 */
interface WorkspaceIndex {
  all: SortedPositions;
  byValue: Map<string, SortedPositions>;
  set: Map<string, SortedPositions>;
  sorted: Map<string, SortedKeys>;
  /** The rows of each label (issues only). */
  labels: LabelIndex;
}

/** A row's labels, for a collection that has them (issues). */
const labelsOf = (row: unknown): readonly string[] | undefined => (row as { labels?: string[] }).labels;

/** A filter value as an index key; null and numbers kept apart from strings. */
const valueKey = (field: string, value: unknown): string =>
  `${field}\u0000${value === null ? 'null' : typeof value === 'number' ? `n${value}` : `s${String(value)}`}`;

/**
 * A collection's rows with the indexes a database would keep: per workspace, every row sorted in
 * list order and, for each filter field value, the rows holding it; and the unique keys. Inserts
 * and updates cost a binary search per index (an append for the newest row), lists walk the
 * smallest matching index from the newest row or the cursor, and a total with at most one
 * equality filter is an index's size. Lives as long as the store; transactions share it.
 */
export class IndexedRows<Name extends CollectionName> {
  readonly rows = new Map<string, CollectionRows[Name]>();
  readonly positions = new Map<string, Position>();
  readonly workspaces = new Map<string, WorkspaceIndex>();
  /** The holders of each unique rule's keys, in the order of `unique`. */
  readonly uniques: readonly UniqueKeys[];
  /** Filter fields with a value index: the rule's unindexed ones are found through its key instead. */
  private readonly indexed: readonly string[];
  /** Nullable fields whose set rows are indexed (collectionDefinitions' `notNull`). */
  readonly setFields: readonly string[];
  /** Fields other than createdAt a list may sort by (collectionDefinitions' `sorts`). */
  private readonly sortFields: readonly string[];
  private seq = 0;

  constructor(
    readonly name: Name,
    readonly unique: readonly UniqueRule[],
  ) {
    this.uniques = unique.map(() => new UniqueKeys());
    this.indexed = collectionDefinitions[name].filters.filter(
      (field) => !unique.some((rule) => rule.unindexed.includes(field)),
    );
    this.setFields = collectionDefinitions[name].notNull;
    this.sortFields = collectionDefinitions[name].sorts;
  }

  /** The workspace's rows in the order of sort field `field`. */
  sortedRows(workspaceId: string, field: string): SortedKeys {
    return this.workspaces.get(workspaceId)?.sorted.get(field) ?? new SortedKeys();
  }

  private sortIndex(index: WorkspaceIndex, field: string): SortedKeys {
    let keys = index.sorted.get(field);
    if (!keys) {
      keys = new SortedKeys();
      index.sorted.set(field, keys);
    }
    return keys;
  }

  private keyed(row: CollectionRows[Name], field: string) {
    return { key: sortKeyOf(this.name, field, row), id: row.id };
  }

  /** The rows of the workspace where `field` is set (one of `setFields`). */
  setRows(workspaceId: string, field: string): SortedPositions {
    return this.workspaces.get(workspaceId)?.set.get(field) ?? new SortedPositions();
  }

  private setIndex(index: WorkspaceIndex, field: string): SortedPositions {
    let positions = index.set.get(field);
    if (!positions) {
      positions = new SortedPositions();
      index.set.set(field, positions);
    }
    return positions;
  }

  /** The workspace's label index (empty for a workspace without rows). */
  labelIndex(workspaceId: string): LabelIndex {
    return this.workspaces.get(workspaceId)?.labels ?? new LabelIndex();
  }

  /**
   * The positions to walk for a label filter, in list order: the rows of the `all` label carried
   * by the fewest rows, or else those of the `any` labels merged; null without a label filter.
   */
  labelled(
    workspaceId: string,
    match: LabelMatch | undefined,
    order: 'asc' | 'desc',
    after?: { createdAt: string; id: string },
  ): { walk: Iterable<Position>; size: number } | null {
    // Labels left out only (`none`) narrow nothing: the other indexes are walked, and each row tested.
    if (!match || (match.all === undefined && match.any === undefined)) return null;
    const labels = this.labelIndex(workspaceId);
    let narrowest: SortedPositions | null = null;
    for (const label of match.all ?? []) {
      const rows = labels.rowsOf(label);
      if (!narrowest || rows.size < narrowest.size) narrowest = rows;
    }
    const anyOf = (match.any ?? []).map((label) => labels.rowsOf(label));
    const anySize = anyOf.reduce((n, rows) => n + rows.size, 0);
    if (narrowest && (match.any === undefined || narrowest.size <= anySize)) {
      const rows = narrowest;
      return { walk: order === 'asc' ? rows.oldestFirst(after) : rows.newestFirst(after), size: rows.size };
    }
    return { walk: mergedPositions(anyOf, order, after), size: anySize };
  }

  /**
   * The positions to walk for an any-of list (`status=open,in_progress`) on an indexed field, in
   * list order: its values' rows merged, for the list whose rows are fewest; null without one.
   * The values' rows are disjoint, so `size` counts each row once.
   */
  listed(
    workspaceId: string,
    where: Where,
    order: 'asc' | 'desc',
    after?: { createdAt: string; id: string },
  ): { walk: Iterable<Position>; size: number } | null {
    const index = this.workspaces.get(workspaceId);
    if (!index) return null;
    let best: { lists: SortedPositions[]; size: number } | null = null;
    for (const [field, value] of Object.entries(where ?? {})) {
      if (!Array.isArray(value) || !this.indexed.includes(field)) continue;
      const lists = [...new Set(value as unknown[])].map(
        (one) => index.byValue.get(valueKey(field, one)) ?? new SortedPositions(),
      );
      const size = lists.reduce((n, rows) => n + rows.size, 0);
      if (!best || size < best.size) best = { lists, size };
    }
    return best && { walk: mergedPositions(best.lists, order, after), size: best.size };
  }

  workspace(workspaceId: string): WorkspaceIndex | undefined {
    return this.workspaces.get(workspaceId);
  }

  private indexesOf(workspaceId: string): WorkspaceIndex {
    let index = this.workspaces.get(workspaceId);
    if (!index) {
      index = {
        all: new SortedPositions(),
        byValue: new Map(),
        set: new Map(),
        sorted: new Map(),
        labels: new LabelIndex(),
      };
      this.workspaces.set(workspaceId, index);
    }
    return index;
  }

  private valueIndex(index: WorkspaceIndex, key: string): SortedPositions {
    let positions = index.byValue.get(key);
    if (!positions) {
      positions = new SortedPositions();
      index.byValue.set(key, positions);
    }
    return positions;
  }

  /** The key of `rule` that `value` (of each of its fields) makes, or null when one is null. */
  private keyOf(rule: UniqueRule, workspaceId: string, value: (field: string) => unknown): UniqueKey | null {
    const parts = rule.fields.map(value);
    if (parts.some((part) => part === undefined || part === null)) return null;
    const prefix = [workspaceId, ...parts.slice(0, -1).map((part) => valueKey('', part))].join('\u0000');
    return { prefix, last: parts.at(-1) };
  }

  /** The row's key of each unique rule (null where a field of it is null), in the order of `unique`. */
  private uniqueKeys(row: CollectionRows[Name]): (UniqueKey | null)[] {
    return this.unique.map((rule) => this.keyOf(rule, row.workspaceId, (field) => fieldValue(row, field)));
  }

  private holdKeys(keys: readonly (UniqueKey | null)[], id: string): void {
    keys.forEach((key, i) => {
      if (key) this.uniques[i]?.set(key, id);
    });
  }

  private releaseKeys(keys: readonly (UniqueKey | null)[], id: string): void {
    keys.forEach((key, i) => {
      if (key) this.uniques[i]?.release(key, id);
    });
  }

  /** Stores a new row in the map and every index; records how to take it all back. */
  add(row: CollectionRows[Name], record: RecordUndo, restored?: Position): void {
    const position: Position = restored ?? { createdAt: row.createdAt, id: row.id, seq: ++this.seq };
    const index = this.indexesOf(row.workspaceId);
    this.rows.set(row.id, row);
    this.positions.set(row.id, position);
    this.holdKeys(this.uniqueKeys(row), row.id);
    index.all.add(position);
    for (const field of this.indexed) {
      this.valueIndex(index, valueKey(field, fieldValue(row, field))).add(position);
    }
    for (const field of this.setFields) {
      if (fieldValue(row, field) != null) this.setIndex(index, field).add(position);
    }
    for (const field of this.sortFields) this.sortIndex(index, field).add(this.keyed(row, field));
    index.labels.add(labelsOf(row), position);
    record(() => this.drop(row.id, () => {}));
  }

  /** Removes a row from the map and every index; records how to put it back. */
  drop(id: string, record: RecordUndo): CollectionRows[Name] | null {
    const row = this.rows.get(id);
    const position = this.positions.get(id);
    if (!row || !position) return null;
    const index = this.indexesOf(row.workspaceId);
    this.rows.delete(id);
    this.positions.delete(id);
    this.releaseKeys(this.uniqueKeys(row), id);
    index.all.remove(position);
    for (const field of this.indexed) {
      index.byValue.get(valueKey(field, fieldValue(row, field)))?.remove(position);
    }
    for (const field of this.setFields) {
      if (fieldValue(row, field) != null) index.set.get(field)?.remove(position);
    }
    for (const field of this.sortFields) index.sorted.get(field)?.remove(this.keyed(row, field));
    index.labels.remove(labelsOf(row), position);
    record(() => this.add(row, () => {}, position));
    return row;
  }

  /** Replaces a stored row by a new version: only the indexes of changed filter fields move. */
  replace(row: CollectionRows[Name], record: RecordUndo): void {
    const before = this.rows.get(row.id);
    const position = this.positions.get(row.id);
    if (!before || !position) throw new Error(`${this.name}: no row ${row.id} to replace`);
    const index = this.indexesOf(row.workspaceId);
    for (const field of this.indexed) {
      const was = fieldValue(before, field);
      const now = fieldValue(row, field);
      if (was === now) continue;
      index.byValue.get(valueKey(field, was))?.remove(position);
      this.valueIndex(index, valueKey(field, now)).add(position);
    }
    for (const field of this.setFields) {
      const was = fieldValue(before, field) != null;
      const now = fieldValue(row, field) != null;
      if (was && !now) index.set.get(field)?.remove(position);
      if (!was && now) this.setIndex(index, field).add(position);
    }
    for (const field of this.sortFields) {
      const was = this.keyed(before, field);
      const now = this.keyed(row, field);
      if (was.key === now.key) continue;
      index.sorted.get(field)?.remove(was);
      this.sortIndex(index, field).add(now);
    }
    const labelsBefore = labelsOf(before);
    const labelsNow = labelsOf(row);
    if (JSON.stringify(labelsBefore) !== JSON.stringify(labelsNow)) {
      index.labels.remove(labelsBefore, position);
      index.labels.add(labelsNow, position);
    }
    this.releaseKeys(this.uniqueKeys(before), row.id);
    this.holdKeys(this.uniqueKeys(row), row.id);
    this.rows.set(row.id, row);
    record(() => this.replace(before, () => {}));
  }

  /** The name of the first unique rule whose key another row holds, or null. */
  conflictOf(row: CollectionRows[Name]): string | null {
    const keys = this.uniqueKeys(row);
    for (const [i, rule] of this.unique.entries()) {
      const key = keys[i];
      const holder = key ? this.uniques[i]?.get(key) : undefined;
      if (holder !== undefined && holder !== row.id) return rule.what;
    }
    return null;
  }

  /**
   * The narrowest index for `where`: the smallest of the equality fields' value indexes (or all
   * the workspace's rows), and whether it alone decides the match.
   */
  candidates(workspaceId: string, where: Where): { positions: SortedPositions; exact: boolean } {
    const index = this.workspaces.get(workspaceId);
    if (!index) return { positions: new SortedPositions(), exact: true };
    const entries = Object.entries(where ?? {}).filter(([, value]) => value !== undefined);
    const scalar = entries.every(([, value]) => value === null || typeof value !== 'object');
    // All of a unique rule's fields given: at most one row, found by its key.
    const given = (where ?? {}) as Fields;
    const ruleAt = scalar
      ? this.unique.findIndex((rule) => this.keyOf(rule, workspaceId, (field) => given[field]) !== null)
      : -1;
    const rule = this.unique[ruleAt];
    const key = rule ? this.keyOf(rule, workspaceId, (field) => given[field]) : null;
    if (key !== null) {
      const positions = new SortedPositions();
      const holder = this.uniques[ruleAt]?.get(key);
      const position = holder === undefined ? undefined : this.positions.get(holder);
      if (position) positions.add(position);
      return { positions, exact: false };
    }
    let best = index.all;
    for (const [field, value] of entries) {
      // A list (any of, none of) has no one value index: the other fields' indexes narrow it.
      if (!this.indexed.includes(field) || (value !== null && typeof value === 'object')) continue;
      const positions = index.byValue.get(valueKey(field, value)) ?? new SortedPositions();
      if (positions.size < best.size || best === index.all) best = positions;
    }
    return { positions: best, exact: scalar && entries.length <= 1 };
  }
}

const matches = (row: unknown, where: Where) =>
  Object.entries(where ?? {}).every(
    ([field, value]) => value === undefined || meetsFilter(fieldValue(row, field), value),
  );

/** A collection over its indexed rows: no operation scans rows outside the index it needs. */
export function memoryCollection<Name extends CollectionName>(
  store: IndexedRows<Name>,
  record: RecordUndo,
): Collection<Name> {
  type Row = CollectionRows[Name];
  const { name } = store;
  const definition = collectionDefinitions[name];

  /**
   * The rows of the workspace matching `where` (and, with `set`, having that field set; with
   * `labels`, carrying them), newest first (oldest first with `asc`). The smallest of the indexes
   * that fit is walked: the rows where `set` is set (few, as the field is null in most rows), an
   * equality filter's value, or a label's rows.
   */
  function* matching(
    workspaceId: string,
    where: Where,
    after?: { createdAt: string; id: string },
    order: 'asc' | 'desc' = 'desc',
    set?: string,
    labels?: LabelMatch,
  ) {
    const positions = set ? store.setRows(workspaceId, set) : store.candidates(workspaceId, where).positions;
    let walk: Iterable<Position> =
      order === 'asc' ? positions.oldestFirst(after) : positions.newestFirst(after);
    let size = positions.size;
    for (const narrower of [
      store.labelled(workspaceId, labels, order, after),
      set ? null : store.listed(workspaceId, where, order, after),
    ]) {
      if (narrower && narrower.size < size) ({ walk, size } = narrower);
    }
    for (const position of walk) {
      const row = store.rows.get(position.id) as Row;
      if (set !== undefined && (row as unknown as Fields)[set] == null) continue;
      if (labels && !meetsLabels(labelsOf(row) ?? [], labels)) continue;
      if (matches(row, where)) yield row;
    }
  }

  /** The ids of `positions` in (sort key, id) order, `desc` reversed, strictly after `after`. */
  function sortedIds(
    positions: Iterable<Position>,
    field: string,
    order: 'asc' | 'desc',
    after?: { key: SortKey; id: string },
  ): string[] {
    const keys = new SortedKeys();
    for (const { id } of positions) keys.add({ key: sortKeyOf(name, field, store.rows.get(id) as Row), id });
    return [...keys.walk(order, after)];
  }

  const countOf = (workspaceId: string, where: Where, labels?: LabelMatch): number => {
    // A null asked of a field whose set rows are indexed: every match of the other filters, less
    // those where it is set (few), so the count stays an index read.
    const nullField = store.setFields.find((field) => where?.[field] === null);
    if (
      nullField !== undefined &&
      (labels !== undefined ||
        Object.keys(where ?? {}).some((f) => f !== nullField && where?.[f] !== undefined))
    ) {
      const { [nullField]: _null, ...rest } = where ?? {};
      let set = 0;
      for (const _ of matching(workspaceId, rest, undefined, 'desc', nullField, labels)) set++;
      return countOf(workspaceId, rest, labels) - set;
    }
    const { positions, exact } = store.candidates(workspaceId, where);
    const filtered = Object.values(where ?? {}).some((value) => value !== undefined);
    // One label asked, and nothing else: the size of its rows.
    const [only] = labels?.all ?? [];
    if (
      labels &&
      !filtered &&
      labels.any === undefined &&
      labels.none === undefined &&
      labels.all?.length === 1 &&
      only !== undefined
    )
      return store.labelIndex(workspaceId).rowsOf(only).size;
    if (exact && !labels) return positions.size;
    // One any-of list, and nothing else: the sum of its values' rows.
    const entries = Object.entries(where ?? {}).filter(([, value]) => value !== undefined);
    const listed = entries.length === 1 && !labels ? store.listed(workspaceId, where, 'desc') : null;
    if (listed) return listed.size;
    let n = 0;
    for (const _ of matching(workspaceId, where, undefined, 'desc', undefined, labels)) n++;
    return n;
  };

  return {
    async insert(row) {
      if (store.rows.has(row.id)) throw new UniqueViolation(`${name}.id`);
      const what = store.conflictOf(row);
      if (what) throw new UniqueViolation(what);
      store.add(clone(row), record);
    },
    async get(workspaceId, id) {
      const row = store.rows.get(id);
      return row && row.workspaceId === workspaceId ? clone(row) : null;
    },
    async getJson(workspaceId, id) {
      const row = store.rows.get(id);
      return row && row.workspaceId === workspaceId ? storedJsonOf(row) : null;
    },
    async findOne(workspaceId, where) {
      // The first inserted, as a database's primary key order would give it.
      let first: Row | null = null;
      let firstSeq = Number.POSITIVE_INFINITY;
      for (const row of matching(workspaceId, where)) {
        const seq = store.positions.get(row.id)?.seq ?? Number.POSITIVE_INFINITY;
        if (seq < firstSeq) {
          first = row;
          firstSeq = seq;
        }
      }
      return first ? clone(first) : null;
    },
    async update(row, expectedVersion) {
      const current = store.rows.get(row.id);
      if (!current || current.workspaceId !== row.workspaceId) throw new VersionMismatch(null);
      if (current.version !== expectedVersion) throw new VersionMismatch(current.version);
      const what = store.conflictOf(row);
      if (what) throw new UniqueViolation(what);
      store.replace(clone(row), record);
    },
    async delete(workspaceId, id) {
      const row = store.rows.get(id);
      if (!row || row.workspaceId !== workspaceId) return false;
      return store.drop(id, record) !== null;
    },
    async deleteWhere(workspaceId, where) {
      const doomed = [...matching(workspaceId, where)].sort(
        (a, b) => (store.positions.get(a.id)?.seq ?? 0) - (store.positions.get(b.id)?.seq ?? 0),
      );
      for (const row of doomed) store.drop(row.id, record);
      return doomed.map(clone);
    },
    async count(workspaceId, where) {
      return countOf(workspaceId, where);
    },
    async tally(workspaceId, where, by) {
      const groups = new Map<string, Tally>();
      for (const row of matching(workspaceId, where)) {
        const record = row as unknown as Record<string, unknown>;
        const values = by.map((field) => record[field] ?? null);
        const key = JSON.stringify(values);
        const group = groups.get(key);
        const updatedAt = record.updatedAt as string;
        if (!group) groups.set(key, { values, count: 1, latestUpdatedAt: updatedAt });
        else {
          group.count++;
          if (updatedAt > group.latestUpdatedAt) group.latestUpdatedAt = updatedAt;
        }
      }
      return [...groups.values()];
    },
    async list(query: ListQuery<Name>) {
      const where = query.where as Where;
      const needle = query.search?.toLowerCase();
      const ranges = Object.entries(query.range ?? {}) as [
        string,
        { gte?: unknown; lte?: unknown } | undefined,
      ][];
      const accepts = (row: Row): boolean => {
        if (query.createdAfter !== undefined && row.createdAt < query.createdAfter) return false;
        if (query.createdBefore !== undefined && row.createdAt >= query.createdBefore) return false;
        if (query.updatedSince !== undefined && row.updatedAt < query.updatedSince) return false;
        if (query.updatedBefore !== undefined && row.updatedAt >= query.updatedBefore) return false;
        for (const [field, bounds] of ranges) {
          if (!bounds) continue;
          const value = (row as unknown as Record<string, string | number>)[field] as string | number;
          // A row without the field matches no bound, as SQL's comparisons with NULL match none.
          if (
            (bounds.gte !== undefined || bounds.lte !== undefined) &&
            (value === null || value === undefined)
          )
            return false;
          if (bounds.gte !== undefined && value < (bounds.gte as string | number)) return false;
          if (bounds.lte !== undefined && value > (bounds.lte as string | number)) return false;
        }
        if (needle !== undefined) {
          const hit = (definition.search as readonly string[]).some((f) => {
            const value = (row as unknown as Fields)[f];
            return typeof value === 'string' && value.toLowerCase().includes(needle);
          });
          if (!hit) return false;
        }
        return true;
      };
      const set = query.notNull?.[0] as string | undefined;
      const labels = query.labels;
      if (labels && name !== 'issues') throw new Error(`${name}: has no labels to filter on`);
      const onlyEquality =
        set === undefined &&
        needle === undefined &&
        query.createdAfter === undefined &&
        query.createdBefore === undefined &&
        query.updatedSince === undefined &&
        query.updatedBefore === undefined &&
        ranges.every(([, bounds]) => bounds === undefined);

      const page: Row[] = [];
      if (query.sort) {
        // Walked in the sort field's order; each row checked against every filter. The issues of
        // labels carried by few are read from the label index and sorted instead.
        const labelled = store.labelled(query.workspaceId, labels, 'desc');
        const walk =
          labelled && labelled.size <= fewLabelled
            ? sortedIds(labelled.walk, query.sort.field, query.sort.order, query.afterKey)
            : store.sortedRows(query.workspaceId, query.sort.field).walk(query.sort.order, query.afterKey);
        for (const id of walk) {
          if (page.length >= query.limit) break;
          const row = store.rows.get(id) as Row;
          if (set !== undefined && (row as unknown as Fields)[set] == null) continue;
          if (query.unchangedSince !== undefined && row.updatedAt > query.unchangedSince) continue;
          if (labels && !meetsLabels(labelsOf(row) ?? [], labels)) continue;
          if (matches(row, where) && accepts(row)) page.push(row);
        }
      } else {
        for (const row of matching(query.workspaceId, where, query.after, query.order, set, labels)) {
          if (page.length >= query.limit) break;
          if (accepts(row)) page.push(row);
        }
      }
      const sumField = query.sum as string | undefined;
      if (query.withoutTotal && sumField === undefined) return { rows: page.map(clone), total: page.length };
      let total: number;
      let sum = 0;
      if (onlyEquality && sumField === undefined) {
        total = countOf(query.workspaceId, where, labels);
      } else {
        total = 0;
        for (const row of matching(query.workspaceId, where, undefined, 'desc', set, labels)) {
          if (!accepts(row)) continue;
          total++;
          if (sumField !== undefined) sum += Number((row as unknown as Fields)[sumField] ?? 0);
        }
      }
      return { rows: page.map(clone), total, ...(sumField === undefined ? {} : { sum }) };
    },
  };
}
