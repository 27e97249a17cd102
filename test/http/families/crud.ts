import { expect, it } from 'vitest';
import { newKey, startTime, type TestServer } from '../harness.js';
import { expectJson, expectProblem, issuePaths, type Json } from './answers.js';
import { type BodyFactory, mainTenant, otherTenant, validBodies } from './fixtures.js';
import { pageToEnd } from './paging.js';
import { signalsOf, signalTypesOf } from './signals.js';
import { client, describeThrough, type Target } from './support.js';

/** What the shared contract of CONTRACT §3–§5 needs to know about one family. */
export interface FamilySpec {
  /** The collection path under /api/v1, e.g. `/outcomes`. */
  path: string;
  /** The id prefix, e.g. `out`. */
  idPrefix: string;
  /** The methods the collection and the single items answer (the `Allow` of a 405). */
  collectionMethods: string[];
  itemMethods: string[];
  /** Fields a create must carry. */
  required: string[];
  /** A PATCH body that changes the resource (for families with PATCH). */
  patch?: Record<string, unknown>;
  /** The signal types of CONTRACT §6 for each mutation. */
  events: { created: string; updated?: string; deleted?: string };
  /** Defaults to the family's entry in `validBodies`. */
  body?: BodyFactory;
  /** The list's default order is oldest first (comments), not newest first. */
  oldestFirst?: boolean;
}

/**
 * The newest signal has this type, names the resource, and carries it (and, for an update, the
 * old values of the changed fields, a subset of which `previous` gives).
 */
async function expectLastSignal(
  s: TestServer,
  type: string | undefined,
  object: Json,
  previous?: Record<string, unknown>,
) {
  if (type === undefined) throw new Error('the family spec names no event type for this mutation');
  const last = (await signalsOf(s)).at(-1);
  expect(last?.type).toBe(type);
  expect(last?.resource).toEqual({ type: type.slice(0, type.lastIndexOf('.')), id: object.id });
  expect(last?.data.object).toEqual(object);
  if (previous) expect(last?.data.previous).toMatchObject(previous);
}

const allMethods = ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'];
const allowOf = (header: string | null) => (header ?? '').split(/,\s*/).sort();

/**
 * The behaviour every data family shares: idempotent creates with required fields, single
 * items with ETags, PATCH and DELETE with If-Match, 405 for the methods it lacks, and lists
 * paged to the end. Each mutation writes exactly its signal; a refused one writes none.
 */
export function runCrudContract(target: Target, spec: FamilySpec): void {
  const body = spec.body ?? validBodies[spec.path];
  if (!body) throw new Error(`no valid body for ${spec.path}`);
  const { path, events } = spec;

  describeThrough(target, `${path}: the shared contract`, (server) => {
    const make = async (s: TestServer, n = 1) => client(s).create(path, await body(s, mainTenant(s), n));

    it('answers a first create with 201, ETag "1" and the resource with the fields sent', async () => {
      const s = server();
      const sent = await body(s, mainTenant(s), 1);
      const res = await client(s).post(path, sent);
      const created = expectJson(res, 201);
      expect(res.headers.get('etag')).toBe('"1"');
      expect(created).toMatchObject({
        ...sent,
        id: expect.stringMatching(new RegExp(`^${spec.idPrefix}_[0-9A-Za-z]+$`)),
        createdAt: new Date(startTime).toISOString(),
        updatedAt: new Date(startTime).toISOString(),
        version: 1,
      });
      expect(created).not.toHaveProperty('workspaceId');
    });

    it('replays the same Idempotency-Key and body with 200 and the original resource, creating nothing', async () => {
      const s = server();
      const sent = await body(s, mainTenant(s), 1);
      const key = newKey();
      let first: unknown;
      const types = await signalTypesOf(s, async () => {
        first = expectJson(await client(s).post(path, sent, { key }), 201);
        s.clock.advance(1000);
        const replay = await client(s).post(path, sent, { key });
        expect(expectJson(replay, 200)).toEqual(first);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
      });
      expect(types).toEqual([events.created]);
      await expectLastSignal(server(), events.created, first);
    });

    it('answers the same Idempotency-Key with another body with 422 idempotency_key_reused', async () => {
      const s = server();
      const key = newKey();
      expectJson(await client(s).post(path, await body(s, mainTenant(s), 1), { key }), 201);
      const types = await signalTypesOf(s, async () => {
        const res = await client(s).post(path, await body(s, mainTenant(s), 2), { key });
        expectProblem(res, 422, 'idempotency_key_reused');
      });
      // Only the signals of what the second body needed created first (e.g. its outcome).
      expect(types).not.toContain(events.created);
    });

    it('answers a create without an Idempotency-Key with 400 idempotency_key_missing', async () => {
      const s = server();
      const res = await s.api('POST', `/api/v1${path}`, {
        token: s.tokens.admin,
        body: await body(s, mainTenant(s), 1),
      });
      expectProblem(res, 400, 'idempotency_key_missing');
    });

    it('answers a create missing a required field with 400 validation_failed naming that field', async () => {
      const s = server();
      const complete = await body(s, mainTenant(s), 1);
      for (const field of spec.required) {
        const { [field]: _dropped, ...rest } = complete;
        const res = await client(s).post(path, rest);
        expect(issuePaths(res)).toContain(field);
      }
      const types = await signalTypesOf(s, () => client(s).post(path, {}));
      expect(types).toEqual([]);
    });

    it('answers GET of an item with 200 and its ETag, and If-None-Match of that ETag with 304', async () => {
      const s = server();
      const created = await make(s);
      const res = await client(s).get(`${path}/${created.id}`);
      expect(expectJson(res, 200)).toEqual(created);
      // Byte for byte the create's answer, keys in the same order (a read sends the stored text).
      expect(res.text).toBe(JSON.stringify(created));
      expect(res.headers.get('etag')).toBe('"1"');
      const cached = await client(s).get(`${path}/${created.id}`, s.tokens.admin, { 'If-None-Match': '"1"' });
      expect(cached.status).toBe(304);
      expect(cached.text).toBe('');
    });

    it("answers an unknown id and another workspace's id with 404 not_found", async () => {
      const s = server();
      expectProblem(await client(s).get(`${path}/${spec.idPrefix}_doesnotexist`), 404, 'not_found');
      const foreign = await client(s).create(path, await body(s, otherTenant(s), 1), s.other.adminToken);
      expectProblem(await client(s).get(`${path}/${foreign.id}`), 404, 'not_found');
    });

    it('answers every method the family lacks with 405 method_not_allowed and the Allow header', async () => {
      const s = server();
      const created = await make(s);
      const targets = [
        { url: path, allowed: spec.collectionMethods },
        { url: `${path}/${created.id}`, allowed: spec.itemMethods },
      ];
      for (const { url, allowed } of targets) {
        for (const method of allMethods.filter((m) => !allowed.includes(m))) {
          const res = await s.api(method, `/api/v1${url}`, { token: s.tokens.admin });
          expectProblem(res, 405, 'method_not_allowed');
          // HEAD is answered wherever GET is, and listed with it.
          const listed = allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
          expect(allowOf(res.headers.get('allow'))).toEqual([...listed].sort());
        }
      }
    });

    const patch = spec.patch;
    if (patch) {
      it('applies a PATCH with the current If-Match: 200, version 2 and ETag "2", one update signal', async () => {
        const s = server();
        const created = await make(s);
        s.clock.advance(1000);
        let updated: Record<string, unknown> = {};
        const types = await signalTypesOf(s, async () => {
          const res = await client(s).patch(`${path}/${created.id}`, patch, '"1"');
          updated = expectJson(res, 200);
          expect(res.headers.get('etag')).toBe('"2"');
        });
        expect(types).toEqual([events.updated]);
        const changed = Object.keys(patch).filter(
          (f) => JSON.stringify(patch[f]) !== JSON.stringify(created[f]),
        );
        const previous = Object.fromEntries(changed.map((field) => [field, created[field]]));
        await expectLastSignal(s, events.updated, updated, previous);
        expect(updated).toMatchObject({
          ...patch,
          id: created.id,
          version: 2,
          createdAt: created.createdAt,
          updatedAt: new Date(startTime + 1000).toISOString(),
        });
        expect(expectJson(await client(s).get(`${path}/${created.id}`), 200)).toEqual(updated);
      });

      it('answers a PATCH with a stale If-Match with 409 and the current ETag, and one without with 428', async () => {
        const s = server();
        const created = await make(s);
        expectJson(await client(s).patch(`${path}/${created.id}`, patch, '"1"'), 200);
        const types = await signalTypesOf(s, async () => {
          const stale = await client(s).patch(`${path}/${created.id}`, patch, '"1"');
          expectProblem(stale, 409, 'version_conflict');
          expect(stale.headers.get('etag')).toBe('"2"');
          expectProblem(
            await client(s).patch(`${path}/${created.id}`, patch, null),
            428,
            'precondition_required',
          );
          expectProblem(
            await client(s).patch(`${path}/${spec.idPrefix}_nope`, patch, '"1"'),
            404,
            'not_found',
          );
        });
        expect(types).toEqual([]);
        expect(expectJson(await client(s).get(`${path}/${created.id}`), 200).version).toBe(2);
      });
    }

    if (spec.itemMethods.includes('DELETE')) {
      it('deletes with 204 and an empty body, then answers 404 to GET and to a second DELETE', async () => {
        const s = server();
        const created = await make(s);
        const types = await signalTypesOf(s, async () => {
          const res = await client(s).remove(`${path}/${created.id}`);
          expect(res.status).toBe(204);
          expect(res.text).toBe('');
        });
        expect(types).toEqual([events.deleted]);
        await expectLastSignal(s, events.deleted, created);
        expectProblem(await client(s).get(`${path}/${created.id}`), 404, 'not_found');
        expectProblem(await client(s).remove(`${path}/${created.id}`), 404, 'not_found');
      });

      it('deletes only with a current If-Match when one is sent: a stale one gets 409 and the current ETag', async () => {
        const s = server();
        const created = await make(s);
        const types = await signalTypesOf(s, async () => {
          const stale = await client(s).remove(`${path}/${created.id}`, '"7"');
          expectProblem(stale, 409, 'version_conflict');
          expect(stale.headers.get('etag')).toBe('"1"');
        });
        expect(types).toEqual([]);
        expectJson(await client(s).get(`${path}/${created.id}`), 200);
        expect((await client(s).remove(`${path}/${created.id}`, '"1"')).status).toBe(204);
      });
    }

    it(`pages a list to the end with nextCursor: ${spec.oldestFirst ? 'oldest' : 'newest'} first, every item once, a constant total`, async () => {
      const s = server();
      const created: string[] = [];
      for (let n = 0; n < 5; n++) {
        created.push((await make(s, n)).id);
        s.clock.advance(1000);
      }
      const paged = await pageToEnd(s, path, 2);
      const all = await client(s).list(`${path}?limit=200`);
      expect(new Set(paged).size).toBe(paged.length);
      expect(paged).toEqual(all.data.map((item: { id: string }) => item.id));
      expect(paged).toHaveLength(all.total);
      const inOrder = spec.oldestFirst ? created : [...created].reverse();
      expect(paged.filter((id) => created.includes(id))).toEqual(inOrder);
    });

    it('filters by createdAfter (inclusive) and createdBefore (exclusive), paging a filtered list to the end', async () => {
      const s = server();
      const created: string[] = [];
      for (let n = 0; n < 4; n++) {
        s.clock.advance(60_000);
        created.push((await make(s, n)).id);
      }
      const [t1, t2] = [1, 2].map((minute) =>
        encodeURIComponent(new Date(startTime + minute * 60_000).toISOString()),
      );
      const [a, b, c, d] = created;
      const newer = spec.oldestFirst ? [b, c, d] : [d, c, b];
      expect(await pageToEnd(s, `${path}?createdAfter=${t2}`, 1)).toEqual(newer);
      expect(await pageToEnd(s, `${path}?createdAfter=${t1}&createdBefore=${t2}`, 1)).toEqual([a]);
      const all = await client(s).list(`${path}?createdBefore=${t1}`);
      expect(all.data.filter((item: { id: string }) => created.includes(item.id))).toEqual([]);
      expect(issuePaths(await client(s).get(`${path}?createdAfter=yesterday`), 'query')).toEqual([
        'createdAfter',
      ]);
    });

    if (patch) {
      it('filters by updatedSince (inclusive): only what changed since then', async () => {
        const s = server();
        const first = await make(s, 1);
        await make(s, 2);
        s.clock.advance(60_000);
        expectJson(await client(s).patch(`${path}/${first.id}`, patch, '"1"'), 200);
        const since = encodeURIComponent(new Date(startTime + 60_000).toISOString());
        const changed = await client(s).list(`${path}?updatedSince=${since}`);
        expect(changed.data.map((item: { id: string }) => item.id)).toEqual([first.id]);
        expect(changed.total).toBe(1);
      });
    }

    it('answers an unknown query parameter and a limit of 0, 201 or abc with 400 naming it', async () => {
      const s = server();
      expect(issuePaths(await client(s).get(`${path}?colour=red`), 'query')).toEqual(['colour']);
      for (const limit of ['0', '201', 'abc', '1.5']) {
        expect(issuePaths(await client(s).get(`${path}?limit=${limit}`), 'query')).toEqual(['limit']);
      }
      for (const limit of ['1', '200']) expectJson(await client(s).get(`${path}?limit=${limit}`), 200);
    });
  });
}
