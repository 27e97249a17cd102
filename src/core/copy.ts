import { collectionNames } from './families/collections.js';
import { dumpTables } from './families/dump-tables.js';
import type {
  CollectionName,
  CollectionRows,
  DumpPage,
  DumpRows,
  DumpTable,
  Storage,
  StorageTx,
} from './port/index.js';

/** How many rows of each table a copy moved. */
export type CopyCounts = { [Table in DumpTable]: number };

export interface CopyProgress {
  table: DumpTable;
  /** Rows of this table copied so far. */
  copied: number;
  /** Whether the table is finished. */
  done: boolean;
}

export interface CopyOptions {
  /** Rows read and written per page (default 500). */
  pageSize?: number;
  /** Called after every page and when each table is finished. */
  onProgress?: (progress: CopyProgress) => void;
}

export interface CopyResult {
  tables: CopyCounts;
  /** The source's latest signal sequence, which the target's next append continues after. */
  latestSequence: number;
}

/** Raised when the target of a copy already holds data: a copy only fills an empty database. */
export class TargetNotEmpty extends Error {
  constructor(readonly table: DumpTable | 'signals sequence') {
    super(`the target database is not empty (it has ${table})`);
    this.name = 'TargetNotEmpty';
  }
}

/**
 * How each table's rows go into the target: through the stores' own inserts, which keep ids,
 * versions, hashes and secrets as given; signals and counters keep their numbers.
 */
type TableWriters = { [Table in DumpTable]: (tx: StorageTx, row: DumpRows[Table]) => Promise<void> };
type CollectionWriters = Pick<TableWriters, CollectionName>;

/** A collection's rows go in through its own insert. */
const collectionWriter =
  <Name extends CollectionName>(name: Name) =>
  (tx: StorageTx, row: CollectionRows[Name]): Promise<void> =>
    tx.collections[name].insert(row);

const writers: TableWriters = {
  accounts: (tx, row) => tx.tenancy.insertAccount(row),
  workspaces: (tx, row) => tx.tenancy.insertWorkspace(row),
  users: (tx, row) => tx.tenancy.insertUser(row),
  memberships: (tx, row) => tx.tenancy.putMembership(row),
  tokens: (tx, row) => tx.tokens.insert(row, { routeByHash: true }),
  sessions: (tx, row) => tx.sessions.insert(row),
  ...(Object.fromEntries(collectionNames.map((name) => [name, collectionWriter(name)])) as CollectionWriters),
  counters: (tx, row) => tx.counters.set(row.workspaceId, row.name, row.value),
  signals: (tx, row) => tx.signals.restore(row),
  watchers: (tx, { accountId, ...watch }) => tx.watches.add(accountId, watch).then(() => undefined),
  watchedEvents: (tx, row) => tx.watches.file(row),
  notificationReads: (tx, row) =>
    tx.watches.markRead(row.accountId, row.workspaceId, row.userId, row.readUpTo).then(() => undefined),
  // Nothing is created before '': the put never replaces, and the target is empty anyway.
  idempotency: (tx, row) => tx.idempotency.put(row, ''),
  webhooks: (tx, row) => tx.webhooks.insert(row),
  deliveries: (tx, row) => tx.deliveries.insert(row),
  deliveryAttempts: (tx, row) => tx.deliveries.insertAttempt(row),
};

/** Throws TargetNotEmpty unless every table of the target is empty and no signal was ever appended. */
async function assertEmpty(tx: StorageTx): Promise<void> {
  for (const table of dumpTables) {
    const { rows } = await tx.dump.page(table, null, 1);
    if (rows.length > 0) throw new TargetNotEmpty(table);
  }
  if ((await tx.signals.latestSequence()) > 0) throw new TargetNotEmpty('signals sequence');
}

async function copyTable<Table extends DumpTable>(
  table: Table,
  from: StorageTx,
  to: StorageTx,
  pageSize: number,
  onProgress: (progress: CopyProgress) => void,
): Promise<number> {
  const write = writers[table] as (tx: StorageTx, row: DumpRows[Table]) => Promise<void>;
  let after: string | null = null;
  let copied = 0;
  do {
    const page: DumpPage<Table> = await from.dump.page(table, after, pageSize);
    for (const row of page.rows) await write(to, row);
    copied += page.rows.length;
    after = page.next;
    onProgress({ table, copied, done: after === null });
  } while (after !== null);
  return copied;
}

/**
 * Copies every row of `source` into `target`, which must be empty: ids, keys, issue numbers and
 * their counters, signal sequences (and the latest one), token hashes, webhook secrets, sessions,
 * idempotency records, watches (their filed signals and read markers) and pending deliveries
 * stay as they were, so a server pointed at the target carries on where one on the source stopped.
 *
 * The source is read in one read transaction (a consistent snapshot where the adapter gives one)
 * and the target written in one write transaction: a copy that fails leaves the target empty.
 * Stop the servers on the source first: writes made during the copy are not in it.
 */
export async function copyStorage(
  source: Storage,
  target: Storage,
  options: CopyOptions = {},
): Promise<CopyResult> {
  const pageSize = options.pageSize ?? 500;
  const onProgress = options.onProgress ?? (() => {});
  return target.transaction(async (to) => {
    await assertEmpty(to);
    return source.transaction(
      async (from) => {
        const tables = {} as CopyCounts;
        for (const table of dumpTables)
          tables[table] = await copyTable(table, from, to, pageSize, onProgress);
        const latestSequence = await from.signals.latestSequence();
        await to.signals.continueAfter(latestSequence);
        return { tables, latestSequence };
      },
      { mode: 'read' },
    );
  });
}
