import { loadModule, parseSync } from 'libpg-query';
import { type TableKind, tableKinds } from '../../src/adapters/postgres/distribution.js';

/**
 * Whether a statement would stay inside one account on a distributed database (Citus): reads
 * the statement with PostgreSQL's own parser (libpg-query) and checks, for every table it names,
 * what src/adapters/postgres/distribution.ts says that table needs:
 *
 * - a tenant table: a condition `account_id = <parameter, literal or column>` (`id` for
 *   accounts) among the conjuncts of its WHERE or JOIN … ON, directly or through equalities with
 *   another table's account_id (`i.account_id = w.account_id AND w.account_id = $1`); an INSERT
 *   names the account_id column; every two tenant tables in one FROM share their account through
 *   such equalities (a join the distributed database can answer on one node);
 * - a table distributed by its own key: `key = …` likewise, and no join with a tenant table;
 * - a reference table: nothing (every node has all of it).
 *
 * CTEs, subqueries, set operations and data-modifying CTEs are each checked as a statement of
 * their own (a subquery may take its account from the query around it: `account_id =
 * outer.account_id`). A statement that begins with the comment `/* all accounts: <why> *\/`
 * spans accounts on purpose (operator listings, copies, maintenance) and is accepted. Statements
 * that touch no table (BEGIN, SET, LISTEN, function calls) pass.
 */

/** What is wrong with one statement of a text. */
export interface Offense {
  /** The statement, as sent (one statement of a multi-statement text). */
  statement: string;
  problem: string;
}

let loaded: Promise<void> | undefined;

/** Loads the parser (WebAssembly); checkSql needs it loaded first. */
export function loadSqlParser(): Promise<void> {
  loaded ??= loadModule();
  return loaded;
}

/** The comment that marks a statement as spanning accounts on purpose. */
const allAccountsMark = /\/\*\s*all accounts:/i;

type Node = { [key: string]: unknown };

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The node's type and body: `{ SelectStmt: {...} }` → ['SelectStmt', {...}]. */
function unwrap(node: unknown): [string, Node] | undefined {
  if (!isNode(node)) return undefined;
  const keys = Object.keys(node);
  if (keys.length !== 1) return undefined;
  const key = keys[0] as string;
  const body = node[key];
  return isNode(body) ? [key, body] : undefined;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The string values of a list of `{ String: { sval } }` (names, column references). */
function names(value: unknown): string[] {
  return list(value).map((item) => {
    const [type, body] = unwrap(item) ?? [];
    return type === 'String' ? String(body?.sval) : type === 'A_Star' ? '*' : '?';
  });
}

/** A table (or CTE, subquery, function) in a FROM list. */
interface Relation {
  /** The table's name, or undefined for a CTE, a subquery or a function. */
  table: string | undefined;
  /** What the FROM calls it: its alias, or its name. */
  refName: string;
  kind: TableKind | undefined;
}

/** The tables in scope of one query level, and the levels around it (for correlated subqueries). */
interface Scope {
  relations: Relation[];
  outer: Scope | undefined;
}

/** The names WITH gives at this point (a FROM naming one reads the CTE, not a table). */
type Ctes = ReadonlySet<string>;

const kindOf = (table: string): TableKind | undefined => tableKinds[table];

/** A table name no list needs to know: the catalogs. */
const isCatalog = (schema: string | undefined, table: string): boolean =>
  schema === 'pg_catalog' || schema === 'information_schema' || table.startsWith('pg_');

/** Checks one text (one or several statements); returns what is wrong, or nothing. */
export function checkSql(sql: string): Offense[] {
  let parsed: { stmts?: { stmt: unknown; stmt_location?: number; stmt_len?: number }[] };
  try {
    parsed = parseSync(sql) as typeof parsed;
  } catch (error) {
    return [{ statement: sql, problem: `not parsed: ${(error as Error).message}` }];
  }
  const offenses: Offense[] = [];
  let previousEnd = 0;
  for (const entry of parsed.stmts ?? []) {
    const start = entry.stmt_location ?? 0;
    const end = entry.stmt_len ? start + entry.stmt_len : sql.length;
    const statement = sql.slice(start, end).trim();
    const leading = sql.slice(previousEnd, start);
    previousEnd = end;
    if (allAccountsMark.test(leading) || /^\s*\/\*\s*all accounts:/i.test(statement)) continue;
    const problems: string[] = [];
    checkStatement(entry.stmt, new Set(), undefined, problems);
    for (const problem of new Set(problems)) offenses.push({ statement, problem });
  }
  return offenses;
}

/** Checks a statement or a query nested in one (CTE, subquery, INSERT … SELECT). */
function checkStatement(node: unknown, ctes: Ctes, outer: Scope | undefined, problems: string[]): void {
  const [type, body] = unwrap(node) ?? [];
  if (!type || !body) return;
  switch (type) {
    case 'SelectStmt':
      checkSelect(body, ctes, outer, problems);
      return;
    case 'InsertStmt':
      checkInsert(body, ctes, outer, problems);
      return;
    case 'UpdateStmt':
      checkUpdateOrDelete(body, 'fromClause', ctes, outer, problems);
      return;
    case 'DeleteStmt':
      checkUpdateOrDelete(body, 'usingClause', ctes, outer, problems);
      return;
    case 'ExplainStmt':
      checkStatement(body.query, ctes, outer, problems);
      return;
    case 'CopyStmt':
      if (body.query) checkStatement(body.query, ctes, outer, problems);
      else wholeTables([body.relation], 'COPY', problems);
      return;
    case 'TruncateStmt':
      wholeTables(list(body.relations), 'TRUNCATE', problems);
      return;
    case 'LockStmt':
      wholeTables(list(body.relations), 'LOCK TABLE', problems);
      return;
    default:
      return; // BEGIN, SET, LISTEN, DDL…: no rows of an account.
  }
}

/** A statement on whole tables: refused for a distributed one (it spans every account). */
function wholeTables(relations: unknown[], what: string, problems: string[]): void {
  for (const relation of relations) {
    // A list holds `{ RangeVar: … }`; a single relation field holds the RangeVar's body itself.
    const range = unwrap(relation)?.[1] ?? (isNode(relation) ? relation : undefined);
    const table = String(range?.relname ?? '');
    const kind = kindOf(table);
    if (kind && kind.kind !== 'reference') problems.push(`${what} ${table} reaches every account`);
  }
}

/** The WITH of a statement: its CTEs are checked, and their names shadow tables from here on. */
function withCtes(body: Node, ctes: Ctes, outer: Scope | undefined, problems: string[]): Ctes {
  const [, withClause] = unwrap({ WithClause: body.withClause }) ?? [];
  if (!withClause) return ctes;
  const named = new Set(ctes);
  const entries = list(withClause.ctes)
    .map((cte) => unwrap(cte)?.[1])
    .filter(isNode);
  for (const cte of entries) named.add(String(cte.ctename));
  for (const cte of entries) checkStatement(cte.ctequery, named, outer, problems);
  return named;
}

function checkSelect(body: Node, ctes: Ctes, outer: Scope | undefined, problems: string[]): void {
  const inner = withCtes(body, ctes, outer, problems);
  if (body.op && body.op !== 'SETOP_NONE') {
    checkStatement({ SelectStmt: body.larg }, inner, outer, problems);
    checkStatement({ SelectStmt: body.rarg }, inner, outer, problems);
    return;
  }
  const scope: Scope = { relations: [], outer };
  const conditions: unknown[] = [body.whereClause];
  const expressions: unknown[] = [];
  for (const item of list(body.fromClause)) addFrom(item, scope, conditions, expressions, inner, problems);
  checkScope(scope, conditions, problems);
  for (const field of [
    'targetList',
    'whereClause',
    'havingClause',
    'sortClause',
    'groupClause',
    'valuesLists',
    'limitCount',
    'limitOffset',
  ]) {
    expressions.push(body[field]);
  }
  for (const expression of expressions) checkSubqueries(expression, scope, inner, problems);
}

function checkInsert(body: Node, ctes: Ctes, outer: Scope | undefined, problems: string[]): void {
  const inner = withCtes(body, ctes, outer, problems);
  const [, range] = unwrap({ RangeVar: body.relation }) ?? [];
  const table = String(range?.relname ?? '');
  const kind = inner.has(table) && !range?.schemaname ? undefined : kindOf(table);
  if (!kind && !inner.has(table) && !isCatalog(range?.schemaname as string | undefined, table)) {
    problems.push(`${table} is not in tableKinds (src/adapters/postgres/distribution.ts)`);
  }
  if (kind && kind.kind !== 'reference') {
    const columns = list(body.cols).map((col) => String(unwrap(col)?.[1].name));
    if (!columns.includes(kind.column)) {
      problems.push(`INSERT INTO ${table} without its ${kind.column} column`);
    }
  }
  const target: Scope = {
    relations: [{ table, refName: String((range?.alias as Node | undefined)?.aliasname ?? table), kind }],
    outer,
  };
  checkStatement(body.selectStmt, inner, outer, problems);
  checkSubqueries(body.onConflictClause, target, inner, problems);
  checkSubqueries(body.returningClause ?? body.returningList, target, inner, problems);
}

function checkUpdateOrDelete(
  body: Node,
  fromField: 'fromClause' | 'usingClause',
  ctes: Ctes,
  outer: Scope | undefined,
  problems: string[],
): void {
  const inner = withCtes(body, ctes, outer, problems);
  const scope: Scope = { relations: [], outer };
  const conditions: unknown[] = [body.whereClause];
  const expressions: unknown[] = [
    body.targetList,
    body.whereClause,
    body.returningClause ?? body.returningList,
  ];
  addFrom({ RangeVar: body.relation }, scope, conditions, expressions, inner, problems);
  for (const item of list(body[fromField])) addFrom(item, scope, conditions, expressions, inner, problems);
  checkScope(scope, conditions, problems);
  for (const expression of expressions) checkSubqueries(expression, scope, inner, problems);
}

/** Adds a FROM item's relations to the scope, its ON conditions to `conditions`. */
function addFrom(
  item: unknown,
  scope: Scope,
  conditions: unknown[],
  expressions: unknown[],
  ctes: Ctes,
  problems: string[],
): void {
  const [type, body] = unwrap(item) ?? [];
  if (!type || !body) return;
  const alias = (body.alias as Node | undefined)?.aliasname as string | undefined;
  if (type === 'RangeVar') {
    const table = String(body.relname);
    const schema = body.schemaname as string | undefined;
    if (!schema && ctes.has(table)) {
      scope.relations.push({ table: undefined, refName: alias ?? table, kind: undefined });
      return;
    }
    const kind = kindOf(table);
    if (!kind && !isCatalog(schema, table)) {
      problems.push(`${table} is not in tableKinds (src/adapters/postgres/distribution.ts)`);
    }
    scope.relations.push({ table, refName: alias ?? table, kind });
  } else if (type === 'JoinExpr') {
    addFrom(body.larg, scope, conditions, expressions, ctes, problems);
    addFrom(body.rarg, scope, conditions, expressions, ctes, problems);
    conditions.push(body.quals);
    expressions.push(body.quals);
  } else if (type === 'RangeSubselect') {
    // A LATERAL subquery may name what comes before it; either way it is checked on its own.
    checkStatement(body.subquery, ctes, body.lateral ? scope : scope.outer, problems);
    scope.relations.push({ table: undefined, refName: alias ?? '', kind: undefined });
  } else if (type === 'RangeFunction') {
    expressions.push(body.functions);
    scope.relations.push({ table: undefined, refName: alias ?? '', kind: undefined });
  }
}

/** Finds the subqueries in expressions and checks each, with this scope around it. */
function checkSubqueries(node: unknown, scope: Scope, ctes: Ctes, problems: string[]): void {
  if (Array.isArray(node)) {
    for (const item of node) checkSubqueries(item, scope, ctes, problems);
    return;
  }
  if (!isNode(node)) return;
  const [type, body] = unwrap(node) ?? [];
  if (type === 'SubLink' && body) {
    checkSubqueries(body.testexpr, scope, ctes, problems);
    checkStatement(body.subselect, ctes, scope, problems);
    return;
  }
  for (const value of Object.values(node)) checkSubqueries(value, scope, ctes, problems);
}

/** The conjuncts of a condition (AND trees flattened; an OR or NOT is one opaque conjunct). */
function conjuncts(node: unknown, into: Node[] = []): Node[] {
  const [type, body] = unwrap(node) ?? [];
  if (!type || !body) return into;
  if (type === 'BoolExpr' && body.boolop === 'AND_EXPR') {
    for (const arg of list(body.args)) conjuncts(arg, into);
  } else {
    into.push(node as Node);
  }
  return into;
}

/** A side of an equality, with casts and collations taken off. */
function bare(node: unknown): [string, Node] | undefined {
  const unwrapped = unwrap(node);
  if (!unwrapped) return undefined;
  const [type, body] = unwrapped;
  if (type === 'TypeCast' || type === 'CollateClause') return bare(body.arg);
  return unwrapped;
}

/**
 * Checks one query level: which of its tables are routed to one account (or key) by the
 * equalities among its conditions, and which tenant tables share their account.
 */
function checkScope(scope: Scope, conditions: unknown[], problems: string[]): void {
  const distributed = scope.relations.filter((r) => r.kind && r.kind.kind !== 'reference');
  if (distributed.length === 0) return;
  const classes = equalities(scope, conditions);
  const columnOf = (relation: Relation) =>
    relation.kind && 'column' in relation.kind ? relation.kind.column : '';
  const keyOf = (relation: Relation) => `r${scope.relations.indexOf(relation)}.${columnOf(relation)}`;
  const named = (relation: Relation) =>
    relation.refName === relation.table ? `${relation.table}` : `${relation.table} (${relation.refName})`;
  for (const relation of distributed) {
    if (!classes.holdsValue(keyOf(relation))) {
      problems.push(`${named(relation)} has no ${columnOf(relation)} = $n condition`);
    }
  }
  for (let i = 0; i < distributed.length; i++) {
    for (let j = i + 1; j < distributed.length; j++) {
      const [a, b] = [distributed[i] as Relation, distributed[j] as Relation];
      if (a.kind?.kind !== b.kind?.kind) {
        problems.push(`${named(a)} and ${named(b)} are joined but not distributed alike`);
      } else if (classes.find(keyOf(a)) !== classes.find(keyOf(b))) {
        const column = a.kind?.kind === 'own-key' ? columnOf(a) : 'account_id';
        problems.push(`${named(a)} and ${named(b)} are joined without ${column} equality between them`);
      }
    }
  }
}

/**
 * The classes of terms the equalities among the conditions' conjuncts make equal. A term is
 * `r<i>.<column>` for a column of this level's distributed relation i; `$n` for a parameter;
 * `literal:…` for a literal; `other:…` for a column of something else (a reference table, a
 * CTE, a subquery, a function, or a query around this one): each of the last three is a value
 * one node can answer with. Two tables equal to the same parameter share their class.
 */
function equalities(scope: Scope, conditions: unknown[]) {
  const parent = new Map<string, string>();
  const find = (term: string): string => {
    let root = term;
    for (let next = parent.get(root); next !== undefined && next !== root; next = parent.get(root))
      root = next;
    return root;
  };
  const termOf = (node: unknown): string | undefined => {
    const [type, body] = bare(node) ?? [];
    if (!type || !body) return undefined;
    if (type === 'ParamRef') return `$${body.number}`;
    if (type === 'A_Const') {
      return body.isnull ? undefined : `literal:${JSON.stringify({ ...body, location: undefined })}`;
    }
    if (type !== 'ColumnRef') return undefined;
    const fields = names(body.fields);
    const column = fields.at(-1) as string;
    const qualifier = fields.length > 1 ? fields.at(-2) : undefined;
    const index =
      qualifier !== undefined
        ? scope.relations.findIndex((r) => r.refName === qualifier)
        : // Unqualified: the column of the one distributed table of this level distributed by it.
          onlyIndex(
            scope.relations,
            (r) => r.kind !== undefined && r.kind.kind !== 'reference' && r.kind.column === column,
          );
    const relation = scope.relations[index];
    if (!relation?.kind || relation.kind.kind === 'reference') return `other:${fields.join('.')}`;
    return `r${index}.${column}`;
  };
  for (const condition of conditions) {
    for (const conjunct of conjuncts(condition)) {
      for (const [lexpr, rexpr] of equalPairs(conjunct)) {
        const left = termOf(lexpr);
        const right = termOf(rexpr);
        if (left === undefined || right === undefined) continue;
        const [a, b] = [find(left), find(right)];
        if (a !== b) parent.set(a, b);
      }
    }
  }
  const isValue = (term: string) => !/^r\d+\./.test(term);
  return {
    find,
    /** Whether the term's class holds a value (not only columns of this level's tables). */
    holdsValue: (term: string): boolean => {
      const root = find(term);
      if (isValue(root)) return true;
      for (const member of parent.keys()) if (isValue(member) && find(member) === root) return true;
      return false;
    },
  };
}

/**
 * The pairs a conjunct says are equal: `a = b`; `(a, b) = (c, d)` pairwise; `a IN (b)` with
 * one element. Anything else (`IN` of several, `= ANY`, `<>`) pins nothing to one value.
 */
function equalPairs(conjunct: unknown): [unknown, unknown][] {
  const [type, body] = unwrap(conjunct) ?? [];
  if (type !== 'A_Expr' || !body || names(body.name).join('.') !== '=') return [];
  if (body.kind === 'AEXPR_IN') {
    const [listType, listBody] = unwrap(body.rexpr) ?? [];
    const items = listType === 'List' ? list(listBody?.items) : list(body.rexpr);
    return items.length === 1 ? [[body.lexpr, items[0]]] : [];
  }
  if (body.kind !== 'AEXPR_OP') return [];
  const [leftType, left] = unwrap(body.lexpr) ?? [];
  const [rightType, right] = unwrap(body.rexpr) ?? [];
  if (leftType === 'RowExpr' && rightType === 'RowExpr') {
    const [lefts, rights] = [list(left?.args), list(right?.args)];
    return lefts.length === rights.length ? lefts.map((l, i) => [l, rights[i]]) : [];
  }
  return [[body.lexpr, body.rexpr]];
}

/** The index of the only element that passes, or -1. */
function onlyIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  let found = -1;
  for (let i = 0; i < items.length; i++) {
    if (!test(items[i] as T)) continue;
    if (found >= 0) return -1;
    found = i;
  }
  return found;
}
