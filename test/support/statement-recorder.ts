import { relative } from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { checkSql, type Offense } from './distribution-check.js';

/**
 * The distribution check of the PostgreSQL suites: records every statement the PostgreSQL
 * adapter sends in this test process, with the test that sent it, checks each one
 * (distribution-check.ts) and reports those that would not stay inside one account.
 *
 * It wraps node-postgres itself (Client.prototype.query, and Pool.prototype.query for the
 * caller), once per process, so every pool the suites make is covered, the adapter's own and
 * those a test hands it. What the adapter sent is told apart from what the tests send
 * themselves (schema resets, inspections) by the stack at the call: a frame of
 * src/adapters/postgres/. Migrations (migrate.ts, migrations/) are operator work and are not
 * checked.
 */

/** One statement shape that failed the check, and who sent it. */
export interface RecordedOffense extends Offense {
  /** `file > test name`, for each test that sent it (the first few). */
  tests: Set<string>;
  /** How many times it was sent. */
  times: number;
}

/** Statements a recorder saw, and the offenses among them. */
export class StatementRecorder {
  readonly offenses = new Map<string, RecordedOffense>();
  checked = 0;

  /** Checks one text sent by the adapter, on behalf of `test` (asked only when the text offends). */
  record(sql: string, test: string | (() => string)): void {
    this.checked++;
    for (const offense of verdictOf(sql)) {
      const key = `${offense.problem}\n${shapeOf(offense.statement)}`;
      const known = this.offenses.get(key) ?? { ...offense, tests: new Set<string>(), times: 0 };
      known.times++;
      if (known.tests.size < 5) known.tests.add(typeof test === 'string' ? test : test());
      this.offenses.set(key, known);
    }
  }

  /** The offenses as a report, or null when there are none. */
  report(): string | null {
    if (this.offenses.size === 0) return null;
    const lines = [
      `Distribution check: ${this.offenses.size} statement(s) the PostgreSQL adapter sent would not ` +
        'stay inside one account (see src/adapters/postgres/distribution.ts and docs/scaling.md; a ' +
        'statement that spans accounts on purpose starts with /* all accounts: <why> */):',
    ];
    let n = 0;
    for (const offense of this.offenses.values()) {
      n++;
      const statement =
        offense.statement.length > 600 ? `${offense.statement.slice(0, 600)}…` : offense.statement;
      lines.push(
        '',
        `${n}. ${offense.problem} (sent ${offense.times} time${offense.times === 1 ? '' : 's'})`,
        `   ${statement.replaceAll('\n', '\n   ')}`,
        ...[...offense.tests].map((test) => `   sent by: ${test}`),
      );
    }
    return lines.join('\n');
  }
}

/**
 * Verdicts by statement shape (literals taken out: the adapter writes parameters into some
 * texts), shared by the test files this process runs: parsing each text anew would cost more
 * than the tests.
 */
const verdictsKey = Symbol.for('outcome-tracker.distribution-check.verdicts');
const slots = globalThis as unknown as Record<symbol, Map<string, Offense[]> | undefined>;
const verdicts: Map<string, Offense[]> = slots[verdictsKey] ?? new Map<string, Offense[]>();
slots[verdictsKey] = verdicts;

/** A text with its string literals (pg writes parameters as E'…' or '…') replaced by `?`. */
const shapeOf = (sql: string): string => sql.replace(/(?:\bE)?'(?:[^']|'')*'/g, '?');

function verdictOf(sql: string): Offense[] {
  const shape = shapeOf(sql);
  let verdict = verdicts.get(shape);
  if (verdict === undefined) {
    verdict = checkSql(sql);
    if (verdicts.size > 50_000) verdicts.clear();
    verdicts.set(shape, verdict);
  }
  return verdict;
}

/** Where the wrapped node-postgres sends each statement: the recorder of the test file running now. */
const sinkKey = Symbol.for('outcome-tracker.distribution-check.sink');
const patchedKey = Symbol.for('outcome-tracker.distribution-check.patched');
/** The caller of a Pool.query call, carried to the client's query it turns into. */
const callerKey = Symbol.for('outcome-tracker.distribution-check.caller');

type Sink = (sql: string, callers: readonly string[]) => void;
type Slots = Record<symbol, unknown>;

/**
 * The files of the calls on the stack, nearest first. Read from V8's call sites rather than
 * `Error().stack`, whose text the test runner maps back to the sources: on every statement, that
 * cost more than the check itself.
 */
function callerFiles(): string[] {
  const { prepareStackTrace, stackTraceLimit } = Error;
  Error.prepareStackTrace = (_, callSites) => callSites;
  Error.stackTraceLimit = 12;
  try {
    const holder: { stack?: NodeJS.CallSite[] } = {};
    Error.captureStackTrace(holder, callerFiles);
    return (holder.stack ?? []).map((site) => site.getFileName() ?? '');
  } finally {
    Error.prepareStackTrace = prepareStackTrace;
    Error.stackTraceLimit = stackTraceLimit;
  }
}

const adapterFile = /[\\/]adapters[\\/]postgres[\\/]/;
const migrationFile = /[\\/]adapters[\\/]postgres[\\/]migrat(e|ions)/;

/** Whether the adapter sent it (and not for a migration), judging by the calls on the stack. */
function sentByAdapter(callers: readonly string[]): boolean {
  return callers.some((file) => adapterFile.test(file)) && !callers.some((file) => migrationFile.test(file));
}

/** Wraps node-postgres's query methods, once per process. */
function patchPg(): void {
  const clientProto = pg.Client.prototype as unknown as Slots & { query: (...args: unknown[]) => unknown };
  if (clientProto[patchedKey]) return;
  clientProto[patchedKey] = true;

  const clientQuery = clientProto.query;
  clientProto.query = function query(this: unknown, config: unknown, ...rest: unknown[]) {
    try {
      const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
      const sink = (globalThis as Slots)[sinkKey] as Sink | undefined;
      if (sink && typeof text === 'string') {
        const carried =
          typeof config === 'object' && config !== null ? (config as Slots)[callerKey] : undefined;
        sink(text, Array.isArray(carried) ? carried : callerFiles());
      }
    } catch {
      // The check never breaks a query.
    }
    return clientQuery.call(this, config, ...rest);
  };

  // pg.Pool's query takes a client and calls its query later, from a callback: carry the
  // caller's stack along with the statement.
  const poolProto = Object.getPrototypeOf(pg.Pool.prototype) as Slots & {
    query: (...args: unknown[]) => unknown;
  };
  const poolQuery = poolProto.query;
  poolProto.query = function query(this: unknown, config: unknown, ...rest: unknown[]) {
    const stack = callerFiles();
    let carried = config;
    if (typeof config === 'string') carried = { text: config, [callerKey]: stack };
    else if (
      typeof config === 'object' &&
      config !== null &&
      typeof (config as { submit?: unknown }).submit !== 'function'
    ) {
      carried = { ...(config as object), [callerKey]: stack };
    }
    return poolQuery.call(this, carried, ...rest);
  };
}

/** The running test, as `file > test name`. */
function currentTest(): string {
  const state = expect.getState();
  const file = state.testPath ? relative(process.cwd(), state.testPath) : '(unknown file)';
  return `${file} > ${state.currentTestName ?? '(outside a test: a hook or background work)'}`;
}

/** A sink that checks, for `recorder`, what the adapter sends. */
const sinkFor =
  (recorder: StatementRecorder): Sink =>
  (sql, callers) => {
    if (sentByAdapter(callers)) recorder.record(sql, currentTest);
  };

/**
 * Starts recording the adapter's statements for the test file being run (the recorder of the
 * file before it stops receiving them).
 */
export function recordAdapterStatements(): StatementRecorder {
  patchPg();
  const recorder = new StatementRecorder();
  (globalThis as Slots)[sinkKey] = sinkFor(recorder);
  return recorder;
}

/**
 * Sends what the adapter sends while `fn` runs to `recorder` rather than to the file's recorder
 * (the check's own tests send offending statements on purpose).
 */
export async function recordingInto<T>(recorder: StatementRecorder, fn: () => Promise<T>): Promise<T> {
  patchPg();
  const slots = globalThis as Slots;
  const previous = slots[sinkKey];
  slots[sinkKey] = sinkFor(recorder);
  try {
    return await fn();
  } finally {
    slots[sinkKey] = previous;
  }
}
