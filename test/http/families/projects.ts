import { expect, it } from 'vitest';
import { expectJson, issuePaths } from './answers.js';
import { runCrudContract } from './crud.js';
import { createProject, mainTenant } from './fixtures.js';
import { idsOf } from './paging.js';
import { signalTypesOf } from './signals.js';
import { client, describeThrough, type Target } from './support.js';

/** Projects (the extension of CONTRACT §5): a unique short key per workspace, fixed once made, and `q`. */
export function runProjectSuite(target: Target): void {
  runCrudContract(target, {
    path: '/projects',
    idPrefix: 'prj',
    collectionMethods: ['GET', 'POST'],
    itemMethods: ['GET', 'PATCH'],
    required: ['name'],
    patch: { name: 'Apollo Next', description: 'The second launch' },
    events: { created: 'project.created', updated: 'project.updated' },
  });

  describeThrough(target, 'projects', (server) => {
    it('derives a key from the name when none is given, made unique within the workspace', async () => {
      const s = server();
      expect(s.ws.projectKey).toBe('APO');
      expect((await createProject(s, mainTenant(s), 'Mobile app redesign')).key).toBe('MAR');
      expect((await createProject(s, mainTenant(s), 'Apollo')).key).toBe('APO2');
      expect((await createProject(s, mainTenant(s), 'apollo!')).key).toBe('APO3');
      expect((await createProject(s, mainTenant(s), 'Zeus')).key).toBe('ZEU');
    });

    it('keeps a given key, refuses one already used in the workspace, and lets another workspace reuse it', async () => {
      const s = server();
      const http = client(s);
      expect((await http.create('/projects', { name: 'Hermes', key: 'HRM' })).key).toBe('HRM');
      const types = await signalTypesOf(s, async () => {
        expect(issuePaths(await http.post('/projects', { name: 'Hermes 2', key: 'HRM' }))).toEqual(['key']);
        expect(issuePaths(await http.post('/projects', { name: 'Apollo 2', key: 'APO' }))).toEqual(['key']);
        for (const key of ['hrm', 'H', '1AB', 'ABCDEFGHIJK', 'A-B']) {
          expect(issuePaths(await http.post('/projects', { name: 'Bad key', key }))).toEqual(['key']);
        }
      });
      expect(types).toEqual([]);
      const theirs = await http.create('/projects', { name: 'Hermes', key: 'HRM' }, s.other.adminToken);
      expect(theirs.key).toBe('HRM');
    });

    it('keeps the key fixed: a key in a PATCH is ignored', async () => {
      const s = server();
      const res = await client(s).patch(
        `/projects/${s.ws.projectId}`,
        { key: 'NEW', name: 'Apollo 11' },
        '"1"',
      );
      expect(expectJson(res, 200)).toMatchObject({ key: 'APO', name: 'Apollo 11', version: 2 });
    });

    it('finds projects by q over name and description, case-insensitively, within the workspace only', async () => {
      const s = server();
      const http = client(s);
      const hermes = await http.create('/projects', { name: 'Hermes', description: 'Mobile CHECKOUT flows' });
      const checkout = await http.create('/projects', { name: 'Checkout revamp' });
      await http.create('/projects', { name: 'Checkout at Globex' }, s.other.adminToken);
      const found = await http.list('/projects?q=checkout');
      expect([...idsOf(found)].sort()).toEqual([hermes.id, checkout.id].sort());
      expect(found.total).toBe(2);
      expect(idsOf(await http.list('/projects?q=APOLLO'))).toEqual([s.ws.projectId]);
      expect((await http.list('/projects?q=zzz')).total).toBe(0);
      expect(issuePaths(await http.get('/projects?q='), 'query')).toEqual(['q']);
    });
  });
}
