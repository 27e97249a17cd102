import { expect, it } from 'vitest';
import { expectProblem, issuePaths } from './answers.js';
import { runCrudContract } from './crud.js';
import { createOutcome, mainTenant, otherTenant } from './fixtures.js';
import { idsOf } from './paging.js';
import { signalTypesOf } from './signals.js';
import { client, describeThrough, type Target } from './support.js';

/** Context items (CONTRACT §5): kinds with their needed fields, http(s) links only, listed per outcome. */
export function runContextSuite(target: Target): void {
  runCrudContract(target, {
    path: '/context',
    idPrefix: 'ctx',
    collectionMethods: ['GET', 'POST'],
    itemMethods: ['GET', 'DELETE'],
    required: ['outcomeId', 'kind', 'title'],
    events: { created: 'context.created', deleted: 'context.deleted' },
  });

  describeThrough(target, 'context', (server) => {
    it('creates a document, a link with its url and a note with its body', async () => {
      const s = server();
      const http = client(s);
      const { id: outcomeId } = await createOutcome(s, mainTenant(s));
      const doc = await http.create('/context', {
        outcomeId,
        kind: 'document',
        title: 'PRD',
        url: 'https://docs.example.com/prd',
      });
      expect(doc).toMatchObject({
        outcomeId,
        kind: 'document',
        title: 'PRD',
        url: 'https://docs.example.com/prd',
        body: null,
      });
      const link = await http.create('/context', {
        outcomeId,
        kind: 'link',
        title: 'Dashboard',
        url: 'http://grafana.example.com/d/1',
      });
      expect(link).toMatchObject({ kind: 'link', url: 'http://grafana.example.com/d/1', body: null });
      const note = await http.create('/context', {
        outcomeId,
        kind: 'note',
        title: 'Call',
        body: 'Agreed on May',
      });
      expect(note).toMatchObject({ kind: 'note', body: 'Agreed on May', url: null });
    });

    it('answers a document or link without url and a note without body with 400 naming the missing field', async () => {
      const s = server();
      const http = client(s);
      const { id: outcomeId } = await createOutcome(s, mainTenant(s));
      for (const kind of ['document', 'link']) {
        expect(issuePaths(await http.post('/context', { outcomeId, kind, title: 'x' }))).toEqual(['url']);
      }
      expect(issuePaths(await http.post('/context', { outcomeId, kind: 'note', title: 'x' }))).toEqual([
        'body',
      ]);
      expect(
        issuePaths(await http.post('/context', { outcomeId, kind: 'note', title: 'x', body: '' })),
      ).toEqual(['body']);
      expect(issuePaths(await http.post('/context', { outcomeId, kind: 'memo', title: 'x' }))).toEqual([
        'kind',
      ]);
    });

    it("refuses the other kind's field with a value, and takes it as null", async () => {
      const s = server();
      const http = client(s);
      const { id: outcomeId } = await createOutcome(s, mainTenant(s));
      const url = 'https://example.com/a';
      const types = await signalTypesOf(s, async () => {
        for (const kind of ['document', 'link']) {
          expect(
            issuePaths(await http.post('/context', { outcomeId, kind, title: 'x', url, body: 'text' })),
          ).toEqual(['body']);
        }
        expect(
          issuePaths(await http.post('/context', { outcomeId, kind: 'note', title: 'x', body: 'y', url })),
        ).toEqual(['url']);
      });
      expect(types).toEqual([]);
      const note = await http.create('/context', {
        outcomeId,
        kind: 'note',
        title: 'x',
        body: 'y',
        url: null,
      });
      expect(note).toMatchObject({ body: 'y', url: null });
      const link = await http.create('/context', { outcomeId, kind: 'link', title: 'x', url, body: null });
      expect(link).toMatchObject({ body: null, url });
    });

    it('accepts only http and https urls', async () => {
      const s = server();
      const http = client(s);
      const { id: outcomeId } = await createOutcome(s, mainTenant(s));
      const types = await signalTypesOf(s, async () => {
        for (const url of [
          'javascript:alert(1)',
          'file:///etc/passwd',
          'ftp://files.example.com/a',
          'data:text/html,hi',
          'not a url',
        ]) {
          for (const kind of ['link', 'document']) {
            expect(issuePaths(await http.post('/context', { outcomeId, kind, title: 'x', url }))).toEqual([
              'url',
            ]);
          }
        }
      });
      expect(types).toEqual([]);
    });

    it('answers an outcomeId of another workspace or of no outcome with 422 invalid_reference', async () => {
      const s = server();
      const foreign = await createOutcome(s, otherTenant(s));
      const types = await signalTypesOf(s, async () => {
        for (const outcomeId of [foreign.id, 'out_doesnotexist']) {
          const res = await client(s).post('/context', { outcomeId, kind: 'note', title: 'x', body: 'y' });
          expect(expectProblem(res, 422, 'invalid_reference').field).toBe('outcomeId');
        }
      });
      expect(types).toEqual([]);
    });

    it('lists context per outcome and per kind', async () => {
      const s = server();
      const http = client(s);
      const first = await createOutcome(s, mainTenant(s));
      const second = await createOutcome(s, mainTenant(s));
      const a = await http.create('/context', { outcomeId: first.id, kind: 'note', title: 'a', body: 'b' });
      s.clock.advance(1000);
      const b = await http.create('/context', {
        outcomeId: first.id,
        kind: 'link',
        title: 'b',
        url: 'https://x.dev',
      });
      s.clock.advance(1000);
      const c = await http.create('/context', { outcomeId: second.id, kind: 'note', title: 'c', body: 'd' });
      const foreignOutcome = await createOutcome(s, otherTenant(s));
      const foreign = { outcomeId: foreignOutcome.id, kind: 'note', title: 'globex', body: 'secret' };
      await http.create('/context', foreign, s.other.adminToken);
      const ofFirst = await http.list(`/context?outcomeId=${first.id}`);
      expect(idsOf(ofFirst)).toEqual([b.id, a.id]);
      expect(ofFirst.total).toBe(2);
      expect(idsOf(await http.list('/context?kind=note'))).toEqual([c.id, a.id]);
      expect(idsOf(await http.list(`/context?outcomeId=${first.id}&kind=link`))).toEqual([b.id]);
      expect(idsOf(await http.list('/context'))).toEqual([c.id, b.id, a.id]);
      expect(issuePaths(await http.get('/context?kind=memo'), 'query')).toEqual(['kind']);
      expect(issuePaths(await http.get('/context?outcomeId=nope'), 'query')).toEqual(['outcomeId']);
    });
  });
}
