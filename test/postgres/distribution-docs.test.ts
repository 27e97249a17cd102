import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tableKinds } from '../../src/adapters/postgres/distribution.js';
import { collectionTables } from '../../src/core/families/collections.js';

/**
 * docs/scaling.md against the code: its Citus commands distribute every table as
 * src/adapters/postgres/distribution.ts says, its table of kinds names each table under its kind,
 * and it lists the reason of every statement the adapter marks as spanning accounts.
 */
const doc = readFileSync('docs/scaling.md', 'utf8');

/** The text between `<!-- name:start -->` and `<!-- name:end -->`. */
function block(name: string): string {
  const found = doc.match(new RegExp(`<!-- ${name}:start -->([\\s\\S]*?)<!-- ${name}:end -->`));
  if (!found?.[1]) throw new Error(`docs/scaling.md has no ${name} block`);
  return found[1];
}

/** The command that distributes a table as its kind says. */
function commandFor(table: string): string {
  const kind = tableKinds[table];
  if (kind?.kind === 'reference') return `SELECT create_reference_table('${table}');`;
  if (kind?.kind === 'own-key') {
    // The first own-key table starts its group; the others of the same key join it.
    const first = Object.entries(tableKinds).find(([, k]) => k.kind === 'own-key')?.[0];
    const colocate = table === first ? 'none' : first;
    return `SELECT create_distributed_table('${table}', '${kind.column}', colocate_with => '${colocate}');`;
  }
  if (table === 'accounts') return `SELECT create_distributed_table('accounts', '${kind?.column}');`;
  return `SELECT create_distributed_table('${table}', '${kind?.column}', colocate_with => 'accounts');`;
}

/** Every `.ts` file under a directory. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/**
 * The tables the page must name: all of distribution.ts's but the collection tables of families
 * added since it was written (named nowhere on it), which its sentence on collection tables covers.
 */
const coveredByRule = Object.values(collectionTables).filter(
  (table) => !doc.includes(`\`${table}\``) && !doc.includes(`'${table}'`),
);
const named = Object.fromEntries(
  Object.entries(tableKinds).filter(([table]) => !coveredByRule.includes(table)),
);

describe('docs/scaling.md', () => {
  it('says once how a collection table of a family added later is distributed', () => {
    expect(doc.replace(/\s+/g, ' ')).toContain(
      "A family's collection table needs no line there: it is a tenant table by rule",
    );
    for (const table of coveredByRule)
      expect(tableKinds[table]).toEqual({ kind: 'tenant', column: 'account_id' });
  });

  it('distributes every table of distribution.ts as its kind says, accounts first, and no other', () => {
    const commands = block('citus-distribute')
      .split('\n')
      .filter((line) => line.startsWith('SELECT create_'));
    const expected = Object.keys(named).map(commandFor);
    expect([...commands].sort()).toEqual([...expected].sort());
    expect(commands[0]).toBe(commandFor('accounts'));
  });

  it('names every table under its kind in the table of kinds', () => {
    const rows = new Map(
      doc
        .split('\n')
        .filter((line) => /^\|\s*(tenant|reference|own-key)\s*\|/.test(line))
        .map((line) => [line.split('|')[1]?.trim(), line.split('|')[2] ?? ''] as const),
    );
    for (const [table, kind] of Object.entries(named)) {
      expect({ table, listed: rows.get(kind.kind)?.includes(`\`${table}\``) }).toEqual({
        table,
        listed: true,
      });
    }
  });

  it('lists the reason of every statement the adapter marks as spanning accounts', () => {
    const listed = block('all-accounts').replace(/\s+/g, ' ');
    const reasons = new Set<string>();
    for (const file of sources('src/adapters/postgres')) {
      for (const [, reason = ''] of readFileSync(file, 'utf8').matchAll(
        /\/\* all accounts: ([^*]+?) \*\//g,
      )) {
        reasons.add(reason.replace(/\s+/g, ' '));
      }
    }
    expect(reasons.size).toBeGreaterThan(0);
    for (const reason of reasons)
      expect({ reason, listed: listed.includes(reason) }).toEqual({ reason, listed: true });
  });
});
