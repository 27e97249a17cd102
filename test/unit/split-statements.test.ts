import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/adapters/postgres/migrations/index.js';
import { splitStatements } from '../../src/adapters/postgres/split-statements.js';

describe('splitStatements (migrations on a distributed schema, one statement at a time)', () => {
  it('splits at semicolons outside quotes, dollar-quoted bodies and comments', () => {
    expect(
      splitStatements(
        "CREATE TABLE a (x text DEFAULT 'a;b'); -- c;d\nCREATE FUNCTION f() RETURNS int AS $fn$ BEGIN RETURN 1; END $fn$ LANGUAGE plpgsql;\nSELECT 'it''s; fine';",
      ),
    ).toEqual([
      "CREATE TABLE a (x text DEFAULT 'a;b')",
      '-- c;d\nCREATE FUNCTION f() RETURNS int AS $fn$ BEGIN RETURN 1; END $fn$ LANGUAGE plpgsql',
      "SELECT 'it''s; fine'",
    ]);
  });

  it('keeps every migration whole: its statements joined again are its text', () => {
    for (const migration of migrations) {
      const parts = splitStatements(migration.sql);
      expect(parts.length, migration.name).toBeGreaterThan(0);
      expect(parts.join(';').replace(/\s+/g, ''), migration.name).toBe(
        migration.sql.replace(/\s+/g, '').replace(/;+$/, '').replace(/;;+/g, ';'),
      );
    }
  });
});
