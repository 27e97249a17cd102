import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decisionStatuses, issueSeverities, issueStatuses } from '../../src/core/model.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { inWorld, runsOn, type World } from './support.js';

type Step =
  | {
      kind: 'issue';
      outcome: number;
      severity: (typeof issueSeverities)[number];
      to: 'open' | 'in_progress' | 'blocked' | 'resolved' | 'closed';
    }
  | { kind: 'time'; outcome: number; minutes: number; day: number }
  | { kind: 'decision'; outcome: number; status: (typeof decisionStatuses)[number] }
  | { kind: 'tick'; ms: number }
  // blocks relations between issues: the summary's open blockers are issues in status blocked,
  // which a relation neither makes nor unmakes (it counts in the issue's blockedBy instead).
  | { kind: 'blocks'; from: number; to: number }
  | { kind: 'archive'; issue: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('issue' as const),
    outcome: fc.nat(2),
    severity: fc.constantFrom(...issueSeverities),
    to: fc.constantFrom(
      'open' as const,
      'in_progress' as const,
      'blocked' as const,
      'resolved' as const,
      'closed' as const,
    ),
  }),
  fc.record({
    kind: fc.constant('time' as const),
    outcome: fc.nat(2),
    minutes: fc.integer({ min: 1, max: 480 }),
    day: fc.nat(60),
  }),
  fc.record({
    kind: fc.constant('decision' as const),
    outcome: fc.nat(2),
    status: fc.constantFrom('proposed' as const, 'accepted' as const, 'rejected' as const),
  }),
  fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 100_000 }) }),
  fc.record({ kind: fc.constant('blocks' as const), from: fc.nat(20), to: fc.nat(20) }),
  fc.record({ kind: fc.constant('archive' as const), issue: fc.nat(20) }),
);

/** The Monday of ISO week `YYYY-Www`: the week holding January 4th is week 1. */
function mondayOf(week: string): Date {
  const [year, w] = week.split('-W').map(Number) as [number, number];
  const jan4 = Date.UTC(year, 0, 4);
  const monday1 = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * 86_400_000;
  return new Date(monday1 + (w - 1) * 7 * 86_400_000);
}
const day = (d: Date) => d.toISOString().slice(0, 10);

async function total(
  world: World,
  path: string,
  query: Record<string, string>,
  field = 'total',
): Promise<number> {
  const res = await world.call('GET', path, { query: { ...query, limit: '1' } });
  expect(res.status, res.text).toBe(200);
  return res.json[field];
}

/** Every item of a list, page by page. */
async function all(
  world: World,
  path: string,
  query: Record<string, string>,
): Promise<{ id: string; updatedAt: string }[]> {
  const items: { id: string; updatedAt: string }[] = [];
  let cursor: string | null = null;
  do {
    const res = await world.call('GET', path, {
      query: { ...query, limit: '200', ...(cursor ? { cursor } : {}) },
    });
    items.push(...res.json.data);
    cursor = res.json.nextCursor;
  } while (cursor);
  return items;
}

async function build(world: World, steps: readonly Step[]): Promise<string[]> {
  const create = async (path: string, body: unknown) => {
    const res = await world.call('POST', path, { body, headers: { 'idempotency-key': randomUUID() } });
    if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${res.text}`);
    return res.json;
  };
  const outcomes: string[] = [];
  for (const title of ['First', 'Second'])
    outcomes.push((await create('/outcomes', { projectId: world.ws.projectId, title })).id);
  const pick = (n: number) => outcomes[n] ?? null;
  const issues: string[] = [];
  for (const s of steps) {
    if (s.kind === 'tick') world.clock.advance(s.ms);
    else if (s.kind === 'blocks') {
      const from = issues[s.from % Math.max(1, issues.length)];
      const to = issues[s.to % Math.max(1, issues.length)];
      // Refused ones (to itself, twice, a cycle) change nothing.
      if (from && to)
        await world.call('POST', `/issues/${from}/relations`, {
          body: { type: 'blocks', issueId: to },
          headers: { 'idempotency-key': randomUUID() },
        });
    } else if (s.kind === 'archive') {
      // Lists leave archived issues out, and so does the summary.
      const issue = issues[s.issue % Math.max(1, issues.length)];
      if (issue) {
        const res = await world.call('POST', `/issues/${issue}/archive`, { headers: { 'if-match': '*' } });
        expect(res.status, res.text).toBe(200);
      }
    } else if (s.kind === 'issue') {
      const issue = await create('/issues', {
        projectId: world.ws.projectId,
        title: 'Work',
        severity: s.severity,
        outcomeId: pick(s.outcome),
      });
      issues.push(issue.id);
      if (s.to !== 'open') await world.call('POST', `/issues/${issue.id}/transition`, { body: { to: s.to } });
    } else if (s.kind === 'time') {
      const outcomeId = pick(s.outcome);
      if (!outcomeId) continue;
      await create('/time-entries', {
        outcomeId,
        minutes: s.minutes,
        date: day(new Date(Date.UTC(2026, 9, 20) + s.day * 86_400_000)),
      });
    } else {
      await create('/decisions', {
        projectId: world.ws.projectId,
        title: 'Choose',
        rationale: 'Why',
        status: s.status,
        outcomeId: pick(s.outcome),
      });
    }
  }
  return outcomes;
}

describe.each(adaptersUnderTest)('the outcome summary on $name storage', (adapter) => {
  it('equals the totals and sums of the list endpoints over the same outcome', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        await inWorld(adapter, async (world) => {
          const [outcomeId = ''] = await build(world, steps);
          const res = await world.call('GET', `/outcomes/${outcomeId}/summary`);
          expect(res.status).toBe(200);
          const summary = res.json;
          const on = { outcomeId };

          expect(summary.issues.total).toBe(await total(world, '/issues', on));
          for (const status of issueStatuses)
            expect(summary.issues.byStatus[status]).toBe(await total(world, '/issues', { ...on, status }));
          for (const severity of issueSeverities)
            expect(summary.issues.bySeverity[severity]).toBe(
              await total(world, '/issues', { ...on, severity }),
            );
          const blocked = await all(world, '/issues', { ...on, status: 'blocked' });
          expect(summary.openBlockers.total).toBe(blocked.length);
          expect(summary.openBlockers.issues.map((i: { id: string }) => i.id)).toEqual(
            blocked.slice(0, 20).map((i) => i.id),
          );

          expect(summary.time.totalMinutes).toBe(await total(world, '/time-entries', on, 'totalMinutes'));
          const users = Object.keys(summary.time.byUser);
          for (const userId of users)
            expect(summary.time.byUser[userId]).toBe(
              await total(world, '/time-entries', { ...on, userId }, 'totalMinutes'),
            );
          const byWeek = Object.entries(summary.time.byWeek) as [string, number][];
          for (const [week, minutes] of byWeek) {
            const monday = mondayOf(week);
            const sunday = new Date(monday.getTime() + 6 * 86_400_000);
            expect(minutes).toBe(
              await total(
                world,
                '/time-entries',
                { ...on, from: day(monday), to: day(sunday) },
                'totalMinutes',
              ),
            );
          }
          expect(byWeek.reduce((sum, [, m]) => sum + m, 0)).toBe(summary.time.totalMinutes);

          expect(summary.decisions.total).toBe(await total(world, '/decisions', on));
          for (const status of decisionStatuses)
            expect(summary.decisions.byStatus[status]).toBe(
              await total(world, '/decisions', { ...on, status }),
            );

          const outcome = (await world.call('GET', `/outcomes/${outcomeId}`)).json;
          const times = [outcome.updatedAt];
          for (const path of ['/issues', '/time-entries', '/decisions'])
            times.push(...(await all(world, path, on)).map((i) => i.updatedAt));
          expect(summary.lastActivityAt).toBe(times.sort().at(-1));
        });
      }),
      { numRuns: runsOn(adapter, 12) },
    );
  });
});
