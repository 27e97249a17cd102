import type Database from 'better-sqlite3';
import type { Db, StatementEffect } from './types.js';

type TriggerEvent = 'INSERT' | 'UPDATE' | 'DELETE';

/** What the schema's triggers do, by the table (lower case) they are on. */
interface TableTriggers {
  events: Set<TriggerEvent>;
  /** The tables the INSERT triggers write; null when one of their bodies cannot be read. */
  insertWrites: Set<string> | null;
}

/** A statement of a trigger's body that writes, and the table it writes. */
const writesPattern =
  /\b(?:(?:INSERT|REPLACE)(?:\s+OR\s+\w+)?\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+["'`[]?(\w+)/gi;

/** The triggers of each table, as the schema holds them now. */
function tableTriggers(db: Db): Map<string, TableTriggers> {
  const byTable = new Map<string, TableTriggers>();
  const triggers = db.prepare("SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger'").all() as {
    tbl_name: string;
    sql: string;
  }[];
  for (const { tbl_name: table, sql } of triggers) {
    const name = table.toLowerCase();
    const entry = byTable.get(name) ?? { events: new Set<TriggerEvent>(), insertWrites: new Set<string>() };
    const event = /\b(INSERT|UPDATE|DELETE)\b(?:\s+OF\b[\s\S]*?)?\s+ON\s/i.exec(sql)?.[1]?.toUpperCase();
    // A trigger whose event cannot be read is taken to fire on everything.
    const events = event ? [event as TriggerEvent] : (['INSERT', 'UPDATE', 'DELETE'] as const);
    for (const each of events) entry.events.add(each);
    if (events.includes('INSERT')) {
      const body = /\bBEGIN\b([\s\S]*)\bEND\b/i.exec(sql)?.[1];
      const written = body
        ? [...body.matchAll(writesPattern)].map((m) => (m[1] as string).toLowerCase())
        : [];
      if (!body || written.length === 0) entry.insertWrites = null;
      else for (const each of written) entry.insertWrites?.add(each);
    }
    byTable.set(name, entry);
  }
  return byTable;
}

/**
 * The tables an insert into `table` writes: itself, and what its insert triggers write, when those
 * tables fire no trigger of their own; null when that cannot be told.
 */
function insertReach(byTable: Map<string, TableTriggers>, table: string): string[] | null {
  const own = byTable.get(table);
  if (!own?.events.has('INSERT')) return [table];
  if (own.insertWrites === null) return null;
  const reached = [...own.insertWrites];
  if (reached.some((written) => written === table || (byTable.get(written)?.events.size ?? 0) > 0))
    return null;
  return [table, ...reached];
}

/** The target of an INSERT or REPLACE (after any schema name, as in `main.issues`), and its conflict clause. */
const insertPattern =
  /^\s*(?:(REPLACE)|INSERT(?:\s+OR\s+(\w+))?)\s+INTO\s+(?:["'`[]?\w+["'`\]]?\s*\.\s*)?["'`[]?(\w+)/i;

/**
 * Judges what a statement may change, once per statement text (the statement cache keeps the
 * answer with the prepared statement). Reads the schema's triggers once, after migration.
 */
export function statementEffects(db: Db): (sql: string, statement: Database.Statement) => StatementEffect {
  const triggers = tableTriggers(db);
  return (sql, statement) => {
    if (statement.readonly) return { kind: 'read' };
    const insert = insertPattern.exec(sql);
    if (!insert) return { kind: 'write' };
    const table = (insert[3] as string).toLowerCase();
    const events = triggers.get(table)?.events;
    // REPLACE deletes the rows it conflicts with, and foreign-key actions follow deletes.
    const replaces = insert[1] !== undefined || insert[2]?.toUpperCase() === 'REPLACE';
    const upserts = /\bDO\s+UPDATE\b/i.test(sql);
    if (replaces || (upserts && events?.has('UPDATE'))) return { kind: 'write' };
    const tables = insertReach(triggers, table);
    return tables === null ? { kind: 'write' } : { kind: 'insert', tables };
  };
}
