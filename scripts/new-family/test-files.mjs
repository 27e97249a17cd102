// The tests of a new family, in test/families/<name>/: its store contract on every adapter under
// test (memory, SQLite, and PostgreSQL when TEST_DATABASE_URL is set) and its HTTP spec through
// both hosts. They stand alone, so the family needs no line in the shared suites' lists.

/** `store.test.ts`: what the family asks of a store, on every adapter. */
const store = (n) => `import { describe, expect, it } from 'vitest';
import type { ${n.Type} } from '../../../src/core/families/${n.kebab}/record.js';
import { at, freshStore, newId } from '../../conformance/fixtures.js';
import { adaptersUnderTest } from '../../support/adapters.js';

/** A stored ${n.noun} of \`workspaceId\`, created at \`at(seconds)\`. */
const row = (workspaceId: string, seconds: number, fields: Partial<${n.Type}> = {}): ${n.Type} => ({
  id: newId('${n.idPrefix}'),
  workspaceId,
  name: \`${n.Type} \${seconds}\`,
  status: 'open',
  description: null,
  createdAt: at(seconds),
  updatedAt: at(seconds),
  version: 1,
  ...fields,
});

for (const adapter of adaptersUnderTest) {
  describe(\`the ${n.plural} collection on \${adapter.name}\`, () => {
    const { tx } = freshStore(adapter);

    it('keeps a row, reads it back in its workspace only, and serves its JSON without the workspace', async () => {
      const first = row('wsp_1', 0, { description: 'Seen on *Safari* too' });
      await tx((t) => t.collections.${n.collection}.insert(first));
      expect(await tx((t) => t.collections.${n.collection}.get('wsp_1', first.id))).toEqual(first);
      expect(await tx((t) => t.collections.${n.collection}.get('wsp_2', first.id))).toBeNull();
      const { workspaceId: _hidden, ...shown } = first;
      expect(await tx((t) => t.collections.${n.collection}.getJson('wsp_1', first.id))).toEqual({
        json: JSON.stringify(shown),
        version: 1,
      });
    });

    it('lists newest first, narrowed by status, with the total of the matches', async () => {
      const rows = [row('wsp_1', 1), row('wsp_1', 2, { status: 'closed' }), row('wsp_1', 3), row('wsp_2', 4)];
      await tx(async (t) => {
        for (const r of rows) await t.collections.${n.collection}.insert(r);
      });
      const open = await tx((t) =>
        t.collections.${n.collection}.list({ workspaceId: 'wsp_1', where: { status: 'open' }, limit: 10 }),
      );
      expect(open.rows.map((r) => r.id)).toEqual([rows[2]?.id, rows[0]?.id]);
      expect(open.total).toBe(2);
      expect(await tx((t) => t.collections.${n.collection}.count('wsp_1', {}))).toBe(3);
    });

    it('sorts by update time', async () => {
      const older = row('wsp_1', 1, { updatedAt: at(9) });
      const newer = row('wsp_1', 2, { updatedAt: at(5) });
      await tx(async (t) => {
        await t.collections.${n.collection}.insert(older);
        await t.collections.${n.collection}.insert(newer);
      });
      const sorted = await tx((t) =>
        t.collections.${n.collection}.list({
          workspaceId: 'wsp_1',
          sort: { field: 'updatedAt', order: 'asc' },
          limit: 10,
        }),
      );
      expect(sorted.rows.map((r) => r.id)).toEqual([newer.id, older.id]);
    });

    it('updates at the expected version only, and deletes', async () => {
      const first = row('wsp_1', 0);
      await tx((t) => t.collections.${n.collection}.insert(first));
      const next = { ...first, status: 'closed' as const, updatedAt: at(1), version: 2 };
      await tx((t) => t.collections.${n.collection}.update(next, 1));
      expect(await tx((t) => t.collections.${n.collection}.get('wsp_1', first.id))).toEqual(next);
      await expect(tx((t) => t.collections.${n.collection}.update({ ...next, version: 3 }, 1))).rejects.toThrow();
      expect(await tx((t) => t.collections.${n.collection}.delete('wsp_1', first.id))).toBe(true);
      expect(await tx((t) => t.collections.${n.collection}.count('wsp_1', {}))).toBe(0);
    });
  });
}
`;

/** `http.test.ts`: the shared CRUD contract and the family's own rules, through both hosts. */
const http = (n) => `import { describe, expect, it } from 'vitest';
import { runCrudContract } from '../../http/families/crud.js';
import { idsOf } from '../../http/families/paging.js';
import { client, labelOf, type Target, useServer } from '../../http/families/support.js';
import type { Host } from '../../http/harness.js';
import { adaptersUnderTest } from '../../support/adapters.js';

const hosts: Host[] = ['node', 'hono'];

function run${n.Types}Suite(target: Target): void {
  runCrudContract(target, {
    path: '/${n.kebab}',
    idPrefix: '${n.idPrefix}',
    collectionMethods: ['GET', 'POST'],
    itemMethods: ['GET', 'PATCH', 'DELETE'],
    required: ['name'],
    patch: { name: 'Renamed', status: 'closed' },
    events: {
      created: '${n.resourceType}.created',
      updated: '${n.resourceType}.updated',
      deleted: '${n.resourceType}.deleted',
    },
    body: async (_s, _as, n) => ({ name: \`${n.Type} \${n}\` }),
  });

  describe(\`the ${n.plural} through \${labelOf(target)}\`, () => {
    const server = useServer(target);

    it('creates open ${n.plural} and narrows the list by status', async () => {
      const http = client(server());
      const first = await http.create('/${n.kebab}', { name: 'First' });
      const second = await http.create('/${n.kebab}', { name: 'Second', status: 'closed' });
      expect(first).toMatchObject({ status: 'open', description: null, version: 1 });
      expect(idsOf(await http.list('/${n.kebab}?status=closed'))).toEqual([second.id]);
      expect(idsOf(await http.list('/${n.kebab}'))).toEqual([second.id, first.id]);
    });
  });
}

for (const adapter of adaptersUnderTest) {
  for (const host of hosts) run${n.Types}Suite({ host, adapter });
}
`;

/**
 * `operation-ids.json`: the family's operationIds, pinned as test/openapi/examples.test.ts pins
 * the others: renaming one would rename a method of generated clients.
 */
const operationIds = (n) =>
  `${JSON.stringify([`list${n.Types}`, `create${n.Type}`, `get${n.Type}`, `update${n.Type}`, `delete${n.Type}`], null, 2)}\n`;

/** Every file of the family's test folder, by name. */
export const testFiles = (n) => ({
  'store.test.ts': store(n),
  'http.test.ts': http(n),
  'operation-ids.json': operationIds(n),
});
