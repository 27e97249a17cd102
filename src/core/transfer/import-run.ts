import { ApiError } from '../errors.js';
import type { SignalEvent } from '../model.js';
import { type OperationContext, operationContext, type Tenant } from '../pipeline/context.js';
import { type Storage, type StorageTx, UniqueViolation } from '../port/index.js';
import { type Clock, type Ids, isoTime, randomIds, systemClock } from '../runtime.js';
import { workspaceBySlug } from '../tenancy/operations.js';
import { transferFamily } from './families.js';
import type { ItemProblem } from './family.js';

/** What is wrong with one record of a file: where, in which field, and why. */
export interface ImportProblem {
  file: string;
  /** The line the record starts on, from 1. */
  line: number;
  /** The field at fault (a dotted path, or a column's name), or null for the whole record. */
  field: string | null;
  message: string;
}

/** `file:line: field: message`, as compilers write it. */
export const describeProblem = (p: ImportProblem): string =>
  `${p.file}:${p.line}: ${p.field === null ? '' : `${p.field}: `}${p.message}`;

/** One record of a file, ready to be checked and written. */
export interface ImportItem {
  line: number;
  /** The family it goes into (a name of `transferFamilies`). */
  family: string;
  /** The id it has, or will have, in the workspace. */
  id: string;
  /** Records it names, which must be in the file before it or in the workspace. */
  references: readonly { field: string; family: string; id: string }[];
  /** Runs before anything else, in the check and in the write (a member maps its user's id). */
  prepare?(ctx: OperationContext): Promise<void>;
  /** Why it cannot go in although it is new: every reason, none when it can. */
  check?(ctx: OperationContext): Promise<readonly ItemProblem[]>;
  /** Whether it was imported already: a second import skips it. */
  exists(ctx: OperationContext): Promise<boolean>;
  /** Writes it through the family's create operation. */
  create(ctx: OperationContext): Promise<void>;
}

/** What is wrong with an item, before the file and line are added. */
export type { ItemProblem };

/** A file read as items and the problems found reading it, in file order. */
export type ImportSource = () => AsyncIterable<ImportItem | ImportProblem>;

export const isProblem = (entry: ImportItem | ImportProblem): entry is ImportProblem => 'message' in entry;

export interface ImportProgress {
  phase: 'check' | 'write';
  /** Records read so far in this phase. */
  read: number;
}

export interface ImportOptions {
  workspace: string;
  /** The file's name, as problems name it. */
  file: string;
  /** Reports what would be created and every problem, and writes nothing. */
  dryRun?: boolean;
  /** Writes without signals, so no webhook delivery is queued and no event stream hears of it. */
  quietEvents?: boolean;
  /** The check stops after this many problems (default 1000), and says so in a last one. */
  maxProblems?: number;
  /** Records written per transaction (default 200): a failure loses at most one batch. */
  batchSize?: number;
  onProgress?: (progress: ImportProgress) => void;
  clock?: Clock;
  ids?: Ids;
}

export interface ImportReport {
  dryRun: boolean;
  /** Records created (with `dryRun`: that would be), by family; none when there is a problem. */
  created: Record<string, number>;
  /** Records already in the workspace from an earlier import, left as they are, by family. */
  existing: Record<string, number>;
  /** Every problem found (up to `maxProblems`); when there is one, nothing was written. */
  problems: ImportProblem[];
}

/** Raised when a write fails after the check passed: what was written before it stays. */
export class ImportWriteFailed extends Error {
  /**
   * Whether running the import again can go on: after a lost connection or a killed process it
   * can; a record the database refuses (a refused operation, an id or key taken) is refused again.
   */
  readonly resumable: boolean;

  constructor(
    readonly problem: ImportProblem,
    readonly report: ImportReport,
    options?: { cause?: unknown },
  ) {
    super(describeProblem(problem), options);
    this.name = 'ImportWriteFailed';
    const cause = options?.cause;
    this.resumable = !(cause instanceof ApiError || cause instanceof UniqueViolation);
  }
}

const bump = (counts: Record<string, number>, family: string) => {
  counts[family] = (counts[family] ?? 0) + 1;
};

/** A context that writes no signal: `--quiet-events`. */
function quiet(ctx: OperationContext): OperationContext {
  return {
    ...ctx,
    // The event as it would have been, never stored: the operations do not read it back.
    emit: async (signal) =>
      ({
        id: '',
        sequence: 0,
        type: signal.type,
        occurredAt: ctx.now,
        accountId: ctx.tenant.accountId,
        workspaceId: ctx.tenant.workspaceId,
        actor: ctx.tenant.actor,
        resource: signal.resource,
        data: signal.data,
      }) satisfies SignalEvent,
  };
}

/**
 * Imports a file's records into the workspace, in two passes over it:
 *
 * 1. the check, in read transactions: every record is validated, its references resolved
 *    (to a record earlier in the file or in the workspace), and counted as new or existing;
 * 2. when the check found no problem and this is not a dry run, the write: records in batches,
 *    one transaction each, each record through its family's create (its signal and webhook
 *    deliveries with it, unless `quietEvents`).
 *
 * A record that exists already (imported before) is skipped in both, so a second import creates
 * nothing and one re-run after a failure picks up after the last batch committed.
 */
export async function runImport(
  storage: Storage,
  source: ImportSource,
  options: ImportOptions,
): Promise<ImportReport> {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const batchSize = options.batchSize ?? 200;
  const maxProblems = options.maxProblems ?? 1000;
  const onProgress = options.onProgress ?? (() => {});
  const report: ImportReport = { dryRun: options.dryRun ?? false, created: {}, existing: {}, problems: [] };

  const contextOf = async (tx: StorageTx): Promise<OperationContext> => {
    const workspace = await workspaceBySlug(tx, options.workspace);
    const tenant: Tenant = {
      accountId: workspace.accountId,
      workspaceId: workspace.id,
      actor: { userId: null, tokenId: null },
    };
    const ctx = operationContext(tx, isoTime(clock.now()), ids, tenant, null);
    return options.quietEvents ? quiet(ctx) : ctx;
  };

  // The check. Each batch's findings are kept aside and taken in once its transaction is over:
  // an adapter may run a transaction again (port/storage.ts), and a second run must not count twice.
  const known = new Map<string, Set<string>>();
  let batchKnown = new Map<string, Set<string>>();
  let batchReport: Pick<ImportReport, 'created' | 'existing' | 'problems'> = {
    created: {},
    existing: {},
    problems: [],
  };
  const isKnown = (family: string, id: string) =>
    known.get(family)?.has(id) === true || batchKnown.get(family)?.has(id) === true;
  await inBatches(storage, source, batchSize, 'read', contextOf, onProgress, 'check', {
    begin() {
      batchKnown = new Map();
      batchReport = { created: {}, existing: {}, problems: [] };
    },
    async each(ctx, entry) {
      if (isProblem(entry)) return void batchReport.problems.push(entry);
      // Remembered even when wrong: the records naming it are not wrong too (one problem, one report).
      const ids = batchKnown.get(entry.family) ?? new Set<string>();
      batchKnown.set(entry.family, ids);
      const problems = await checkItem(ctx, entry, isKnown);
      ids.add(entry.id);
      if (problems.length > 0) {
        for (const problem of problems)
          batchReport.problems.push({ file: options.file, line: entry.line, ...problem });
        return;
      }
      if (await entry.exists(ctx)) bump(batchReport.existing, entry.family);
      else bump(batchReport.created, entry.family);
    },
    committed() {
      for (const [family, ids] of batchKnown) {
        const all = known.get(family) ?? new Set<string>();
        for (const id of ids) all.add(id);
        known.set(family, all);
      }
      batchKnown = new Map();
      report.problems.push(...batchReport.problems);
      for (const [family, n] of Object.entries(batchReport.created))
        report.created[family] = (report.created[family] ?? 0) + n;
      for (const [family, n] of Object.entries(batchReport.existing))
        report.existing[family] = (report.existing[family] ?? 0) + n;
    },
    done: () => report.problems.length >= maxProblems,
  });
  if (report.problems.length >= maxProblems) {
    const last = report.problems.at(-1);
    report.problems.splice(maxProblems);
    report.problems.push({
      file: options.file,
      line: last?.line ?? 1,
      field: null,
      message: `the check stopped after ${maxProblems} problems: the rest of the file was not checked`,
    });
  }
  // Nothing is written when there is a problem: no record would be created.
  if (report.problems.length > 0) report.created = {};
  if (report.dryRun || report.problems.length > 0) return report;

  let writing: ImportItem | null = null;
  try {
    await inBatches(storage, source, batchSize, 'write', contextOf, onProgress, 'write', {
      async each(ctx, entry) {
        if (isProblem(entry)) throw new Error(`${describeProblem(entry)} (the file changed since the check)`);
        writing = entry;
        await entry.prepare?.(ctx);
        if (!(await entry.exists(ctx))) await entry.create(ctx);
      },
    });
  } catch (error) {
    const item = writing as ImportItem | null;
    const message =
      error instanceof ApiError ? error.detail : error instanceof Error ? error.message : String(error);
    throw new ImportWriteFailed({ file: options.file, line: item?.line ?? 0, field: null, message }, report, {
      cause: error,
    });
  }
  return report;
}

/** Resolves the item's references and asks its own check; null when it can go in. */
async function checkItem(
  ctx: OperationContext,
  item: ImportItem,
  isKnown: (family: string, id: string) => boolean,
): Promise<ItemProblem[]> {
  await item.prepare?.(ctx);
  const problems: ItemProblem[] = [];
  for (const ref of item.references) {
    if (isKnown(ref.family, ref.id)) continue;
    const family = transferFamily(ref.family);
    if (family && (await family.has(ctx, ref.id))) continue;
    const what = ref.family === 'members' ? 'member' : `record of ${ref.family}`;
    problems.push({
      field: ref.field,
      message: `no ${what} ${ref.id} in the file before this line or in the workspace`,
    });
  }
  // A record that names what is missing cannot be checked further.
  if (problems.length > 0 || (await item.exists(ctx))) return problems;
  return [...((await item.check?.(ctx)) ?? [])];
}

interface BatchHandlers {
  /** Called at the start of each run of a batch's transaction. */
  begin?(): void;
  each(ctx: OperationContext, entry: ImportItem | ImportProblem): Promise<void>;
  /** Called once a batch's transaction has committed. */
  committed?(): void;
  /** Asked after each batch: true stops the run there. */
  done?(): boolean;
}

/** Runs `each` over the source's entries, `size` entries to a transaction. */
async function inBatches(
  storage: Storage,
  source: ImportSource,
  size: number,
  mode: 'read' | 'write',
  contextOf: (tx: StorageTx) => Promise<OperationContext>,
  onProgress: (progress: ImportProgress) => void,
  phase: ImportProgress['phase'],
  handlers: BatchHandlers,
): Promise<void> {
  let batch: (ImportItem | ImportProblem)[] = [];
  let read = 0;
  const flush = async () => {
    const entries = batch;
    batch = [];
    await storage.transaction(
      async (tx) => {
        handlers.begin?.();
        const ctx = await contextOf(tx);
        for (const entry of entries) await handlers.each(ctx, entry);
      },
      { mode },
    );
    handlers.committed?.();
    read += entries.length;
    onProgress({ phase, read });
  };
  for await (const entry of source()) {
    batch.push(entry);
    if (batch.length < size) continue;
    await flush();
    if (handlers.done?.()) return;
  }
  if (batch.length > 0) await flush();
}
