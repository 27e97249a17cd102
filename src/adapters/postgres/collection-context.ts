import type { CollectionName, CollectionRows } from '../../core/port/index.js';
import { addEquality, type Where } from '../shared/collection-clauses.js';
import { scoped, shapes, writesOf } from './collection-sql.js';
import { type Conn, type Prepared, prepared } from './connection.js';
import { issueLabelWrites } from './labels.js';

/** A row of any collection, as the store's statements read and write it. */
export type Row = CollectionRows[CollectionName];

/** The by-id reads of a table, prepared (the hot path of every GET by id and every create's references). */
export interface ByIdStatements {
  get: Prepared;
  getJson: Prepared;
  getForWrite: Prepared;
  getToChange: Prepared;
}

const byIdStatements = new Map<CollectionName, ByIdStatements>();

function byIdOf(name: CollectionName): ByIdStatements {
  let statements = byIdStatements.get(name);
  if (!statements) {
    const where = 'WHERE account_id = $3 AND id = $1 AND workspace_id = $2';
    const get = `SELECT data FROM ${shapes[name].table} ${where}`;
    statements = {
      get: prepared(get),
      getJson: prepared(`SELECT data, version FROM ${shapes[name].table} ${where}`),
      getForWrite: prepared(`${get} FOR KEY SHARE`),
      getToChange: prepared(`${get} FOR NO KEY UPDATE`),
    };
    byIdStatements.set(name, statements);
  }
  return statements;
}

/**
 * What every statement builder of a collection's store works with: its table and statements, and
 * the connection of the transaction it runs in. Every statement names the account of the
 * workspace (account-routes.ts) before anything else.
 */
export interface CollectionContext {
  readonly name: CollectionName;
  readonly conn: Conn;
  readonly shape: (typeof shapes)[CollectionName];
  readonly table: string;
  readonly insertSql: string;
  readonly updateSql: string;
  readonly statements: ByIdStatements;
}

export function collectionContext(name: CollectionName, conn: Conn): CollectionContext {
  const shape = shapes[name];
  const { insertSql, updateSql } = writesOf[name];
  return { name, conn, shape, table: shape.table, insertSql, updateSql, statements: byIdOf(name) };
}

export const parseRow = (data: string): Row => JSON.parse(data) as Row;

/** Conditions whose $1 is the account and $2 the workspace (scoped). */
export function matching(ctx: CollectionContext, accountId: string, workspaceId: string, where: Where) {
  const conditions = scoped(accountId, workspaceId);
  addEquality(ctx.shape, where, conditions);
  return conditions;
}

/** The name under which a write transaction remembers the versions it read of a row. */
export const readKey = (table: string, id: string): string => `${table}\u0000${id}`;

/** An issue's labels (none for other collections). */
export const labelsOf = (name: CollectionName, row: Row): readonly string[] =>
  name === 'issues' ? ((row as { labels?: readonly string[] }).labels ?? []) : [];

/** The statements that add a new issue's labels (none for other collections). */
export const labelsAdded = (ctx: CollectionContext, accountId: string, row: Row) =>
  ctx.name === 'issues'
    ? issueLabelWrites.added(accountId, row.workspaceId, row.id, labelsOf(ctx.name, row))
    : [];

/**
 * The stored text of a row without its workspace, cut rather than parsed and serialized again
 * (the GET by id path): the text was made by JSON.stringify of a row whose first keys are its id
 * and workspace, so it begins with exactly these two pairs, and the rest is what JSON.stringify
 * makes of the row without the workspace. Undefined for a text that begins otherwise (the caller
 * parses it then).
 */
export function withoutWorkspace(data: string, id: string, workspaceId: string): string | undefined {
  const head = `{"id":${JSON.stringify(id)},`;
  const workspace = `"workspaceId":${JSON.stringify(workspaceId)},`;
  if (!data.startsWith(head) || !data.startsWith(workspace, head.length)) return undefined;
  return head + data.slice(head.length + workspace.length);
}
