import { expect, it } from 'vitest';
import { startTime } from '../harness.js';
import { expectJson, expectProblem, issuePaths } from './answers.js';
import { runCrudContract } from './crud.js';
import { createOutcome, createProject, mainTenant, otherTenant } from './fixtures.js';
import { idsOf } from './paging.js';
import { signalsOf, signalTypesOf } from './signals.js';
import { client, describeThrough, type Target } from './support.js';

const at = (seconds: number) => new Date(startTime + seconds * 1000).toISOString();

/** Decisions (CONTRACT §5): rationale, participants, status, decidedAt and supersededBy within a project. */
export function runDecisionSuite(target: Target): void {
  runCrudContract(target, {
    path: '/decisions',
    idPrefix: 'dec',
    collectionMethods: ['GET', 'POST'],
    itemMethods: ['GET', 'PATCH'],
    required: ['projectId', 'title', 'rationale'],
    patch: { rationale: 'Cheaper and faster to run', participants: ['ana', 'bo', 'cy'], status: 'rejected' },
    events: { created: 'decision.created', updated: 'decision.updated' },
  });

  describeThrough(target, 'decisions', (server) => {
    const decide = (s: ReturnType<typeof server>, fields: Record<string, unknown> = {}) =>
      client(s).create('/decisions', {
        projectId: s.ws.projectId,
        title: 'Use Postgres',
        rationale: 'JSONB',
        ...fields,
      });

    it('creates a proposed decision with no participants, outcome, decidedAt or successor by default', async () => {
      const s = server();
      expect(await decide(s)).toMatchObject({
        status: 'proposed',
        participants: [],
        outcomeId: null,
        decidedAt: null,
        supersededBy: null,
      });
    });

    it('stamps decidedAt when a decision is accepted, and keeps a decidedAt the client gives', async () => {
      const s = server();
      const http = client(s);
      const decision = await decide(s);
      s.clock.advance(30_000);
      const accepted = expectJson(
        await http.patch(`/decisions/${decision.id}`, { status: 'accepted' }, '"1"'),
        200,
      );
      expect(accepted.decidedAt).toBe(at(30));
      const given = await decide(s, { status: 'accepted', decidedAt: '2026-11-01T09:00:00+02:00' });
      expect(given.decidedAt).toBe('2026-11-01T07:00:00.000Z');
    });

    it('marks a decision superseded when it names a successor of the same project, with one update signal', async () => {
      const s = server();
      const http = client(s);
      const old = await decide(s, { title: 'Use MySQL' });
      const successor = await decide(s);
      let updated: Record<string, unknown> = {};
      const types = await signalTypesOf(s, async () => {
        updated = expectJson(
          await http.patch(`/decisions/${old.id}`, { supersededBy: successor.id }, '"1"'),
          200,
        );
      });
      expect(types).toEqual(['decision.updated']);
      expect(updated).toMatchObject({ supersededBy: successor.id, status: 'superseded', version: 2 });
      expect((await signalsOf(s)).at(-1)?.data).toEqual({
        object: updated,
        previous: { supersededBy: null, status: 'proposed' },
      });
      const created = await decide(s, { supersededBy: successor.id });
      expect(created.status).toBe('superseded');
    });

    it('answers a supersededBy of another project, another workspace, no decision or itself with 422', async () => {
      const s = server();
      const http = client(s);
      const hermes = await createProject(s, mainTenant(s), 'Hermes');
      const elsewhere = await decide(s, { projectId: hermes.id });
      const foreign = await http.create(
        '/decisions',
        { projectId: s.other.projectId, title: 'x', rationale: 'y' },
        s.other.adminToken,
      );
      const decision = await decide(s);
      const types = await signalTypesOf(s, async () => {
        for (const supersededBy of [elsewhere.id, foreign.id, 'dec_doesnotexist', decision.id]) {
          const patched = await http.patch(`/decisions/${decision.id}`, { supersededBy }, '"1"');
          expect(expectProblem(patched, 422, 'invalid_reference').field).toBe('supersededBy');
          if (supersededBy === decision.id) continue;
          const created = await http.post('/decisions', {
            projectId: s.ws.projectId,
            title: 'x',
            rationale: 'y',
            supersededBy,
          });
          expect(expectProblem(created, 422, 'invalid_reference').field).toBe('supersededBy');
        }
      });
      expect(types).toEqual([]);
    });

    it('answers a supersededBy that would close a loop of successors with 422, changing nothing', async () => {
      const s = server();
      const http = client(s);
      const [first, second, third] = [await decide(s), await decide(s), await decide(s)];
      expect((await http.patch(`/decisions/${first.id}`, { supersededBy: second.id }, '"1"')).status).toBe(
        200,
      );
      expect((await http.patch(`/decisions/${second.id}`, { supersededBy: third.id }, '"1"')).status).toBe(
        200,
      );
      const types = await signalTypesOf(s, async () => {
        for (const [decision, version] of [
          [third, '"1"'],
          [second, '"2"'],
        ] as const) {
          const looped = await http.patch(`/decisions/${decision.id}`, { supersededBy: first.id }, version);
          expect(expectProblem(looped, 422, 'invalid_reference').field).toBe('supersededBy');
        }
      });
      expect(types).toEqual([]);
      expect(expectJson(await http.get(`/decisions/${third.id}`), 200)).toMatchObject({
        supersededBy: null,
        version: 1,
      });
    });

    it('answers a projectId or outcomeId outside the workspace, or an outcome of another project, with 422', async () => {
      const s = server();
      const http = client(s);
      const hermes = await createProject(s, mainTenant(s), 'Hermes');
      const otherProjectOutcome = await createOutcome(s, mainTenant(s), { projectId: hermes.id });
      const foreignOutcome = await createOutcome(s, otherTenant(s));
      const base = { projectId: s.ws.projectId, title: 'x', rationale: 'y' };
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base, projectId: s.other.projectId }, 'projectId'],
        [{ ...base, projectId: 'prj_doesnotexist' }, 'projectId'],
        [{ ...base, outcomeId: foreignOutcome.id }, 'outcomeId'],
        [{ ...base, outcomeId: otherProjectOutcome.id }, 'outcomeId'],
      ];
      const decision = await decide(s);
      const types = await signalTypesOf(s, async () => {
        for (const [body, field] of cases) {
          expect(expectProblem(await http.post('/decisions', body, {}), 422, 'invalid_reference').field).toBe(
            field,
          );
        }
        for (const outcomeId of [foreignOutcome.id, otherProjectOutcome.id]) {
          const res = await http.patch(`/decisions/${decision.id}`, { outcomeId }, '"1"');
          expect(expectProblem(res, 422, 'invalid_reference').field).toBe('outcomeId');
        }
      });
      expect(types).toEqual([]);
      const ownOutcome = await createOutcome(s, mainTenant(s));
      expect((await decide(s, { outcomeId: ownOutcome.id })).outcomeId).toBe(ownOutcome.id);
    });

    it('filters by projectId, outcomeId and status', async () => {
      const s = server();
      const http = client(s);
      const hermes = await createProject(s, mainTenant(s), 'Hermes');
      const outcome = await createOutcome(s, mainTenant(s));
      const a = await decide(s, { outcomeId: outcome.id });
      s.clock.advance(1000);
      const b = await decide(s, { status: 'accepted' });
      s.clock.advance(1000);
      const c = await decide(s, { projectId: hermes.id });
      expect(idsOf(await http.list(`/decisions?projectId=${s.ws.projectId}`))).toEqual([b.id, a.id]);
      expect(idsOf(await http.list(`/decisions?projectId=${hermes.id}`))).toEqual([c.id]);
      expect(idsOf(await http.list(`/decisions?outcomeId=${outcome.id}`))).toEqual([a.id]);
      expect(idsOf(await http.list('/decisions?status=proposed'))).toEqual([c.id, a.id]);
      expect(idsOf(await http.list(`/decisions?status=accepted&projectId=${hermes.id}`))).toEqual([]);
      expect(issuePaths(await http.get('/decisions?status=maybe'), 'query')).toEqual(['status']);
    });

    it('lists every invalid field of a body by its path', async () => {
      const s = server();
      const res = await client(s).post('/decisions', {
        projectId: s.ws.projectId,
        title: 'x',
        rationale: '',
        participants: ['ana', ''],
        status: 'maybe',
      });
      expect(issuePaths(res).sort()).toEqual(['participants.1', 'rationale', 'status']);
    });
  });
}
