import type Database from 'better-sqlite3';
import type { Db, StatementEffect } from './types.js';

type TriggerEvent = 'INSERT' | 'UPDATE' | 'DELETE';

/** The events that fire a trigger, by table (lower case), as the schema holds them now. */
function triggerEvents(db: Db): Map<string, Set<TriggerEvent>> {
  const events = new Map<string, Set<TriggerEvent>>();
  const triggers = db.prepare("SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger'").all() as {
    tbl_name: string;
    sql: string;
  }[];
  for (const { tbl_name: table, sql } of triggers) {
    const event = /\b(INSERT|UPDATE|DELETE)\b(?:\s+OF\b[\s\S]*?)?\s+ON\s/i.exec(sql)?.[1];
    const name = table.toLowerCase();
    const set = events.get(name) ?? new Set<TriggerEvent>();
    // A trigger whose event cannot be read is taken to fire on everything.
    if (event) set.add(event.toUpperCase() as TriggerEvent);
    else for (const each of ['INSERT', 'UPDATE', 'DELETE'] as const) set.add(each);
    events.set(name, set);
  }
  return events;
}

/** The target of an INSERT or REPLACE (after any schema name, as in `main.issues`), and its conflict clause. */
const insertPattern =
  /^\s*(?:(REPLACE)|INSERT(?:\s+OR\s+(\w+))?)\s+INTO\s+(?:["'`[]?\w+["'`\]]?\s*\.\s*)?["'`[]?(\w+)/i;

/**
 * Judges what a statement may change, once per statement text (the statement cache keeps the
 * answer with the prepared statement). Reads the schema's triggers once, after migration.
 */
export function statementEffects(db: Db): (sql: string, statement: Database.Statement) => StatementEffect {
  const fired = triggerEvents(db);
  return (sql, statement) => {
    if (statement.readonly) return { kind: 'read' };
    const insert = insertPattern.exec(sql);
    if (!insert) return { kind: 'write' };
    const table = (insert[3] as string).toLowerCase();
    const events = fired.get(table);
    // REPLACE deletes the rows it conflicts with, and foreign-key actions follow deletes.
    const replaces = insert[1] !== undefined || insert[2]?.toUpperCase() === 'REPLACE';
    const upserts = /\bDO\s+UPDATE\b/i.test(sql);
    if (replaces || events?.has('INSERT') || (upserts && events?.has('UPDATE'))) return { kind: 'write' };
    return { kind: 'insert', table };
  };
}
