import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTracker, type Ids, type Tracker } from '../../src/core/index.js';
import { createMcpServer } from '../../src/mcp/index.js';
import { fakeClock, type SeededWorkspace, seedWorkspace } from '../http/harness.js';
import { runsOn } from '../properties/support.js';
import { type AdapterUnderTest, adaptersUnderTest } from '../support/adapters.js';
import { apiCall, type ToolAnswer } from './support.js';

/** Ids counted from one, so two trackers given the same writes give the same ids. */
function countingIds(): Ids {
  const counts = new Map<string, number>();
  let uuids = 0;
  return {
    id: (prefix) => {
      const next = (counts.get(prefix) ?? 0) + 1;
      counts.set(prefix, next);
      return `${prefix}_${String(next).padStart(8, '0')}`;
    },
    uuid: () => `00000000-0000-4000-8000-${(++uuids).toString(16).padStart(12, '0')}`,
  };
}

/** One operation of a sequence, with references to earlier creations by index. */
type Command =
  | {
      op: 'createIssue';
      title: string;
      severity?: 'low' | 'high';
      outcome?: number;
      key: string;
      repeat: boolean;
    }
  | { op: 'createOutcome'; title: string; key: string }
  | { op: 'createDecision'; title: string; rationale: string; key: string }
  | { op: 'updateIssue'; issue: number; title?: string; severity?: 'low' | 'critical'; stale: boolean }
  | { op: 'transition'; issue: number; to: 'open' | 'in_progress' | 'blocked' | 'resolved' | 'closed' }
  | { op: 'updateOutcome'; outcome: number; status: 'in_progress' | 'shipped' | 'abandoned'; stale: boolean }
  | { op: 'deleteOutcome'; outcome: number };

const text = fc.stringMatching(/^[A-Za-z][A-Za-z ]{2,12}$/);
const ref = fc.nat({ max: 5 });
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record(
    {
      op: fc.constant('createIssue' as const),
      title: text,
      severity: fc.constantFrom('low' as const, 'high' as const),
      outcome: ref,
      key: fc.uuid(),
      repeat: fc.boolean(),
    },
    { requiredKeys: ['op', 'title', 'key', 'repeat'] },
  ),
  fc.record({ op: fc.constant('createOutcome' as const), title: text, key: fc.uuid() }),
  fc.record({ op: fc.constant('createDecision' as const), title: text, rationale: text, key: fc.uuid() }),
  fc.record(
    {
      op: fc.constant('updateIssue' as const),
      issue: ref,
      title: text,
      severity: fc.constantFrom('low' as const, 'critical' as const),
      stale: fc.boolean(),
    },
    { requiredKeys: ['op', 'issue', 'stale'] },
  ),
  fc.record({
    op: fc.constant('transition' as const),
    issue: ref,
    to: fc.constantFrom(
      'open' as const,
      'in_progress' as const,
      'blocked' as const,
      'resolved' as const,
      'closed' as const,
    ),
  }),
  fc.record({
    op: fc.constant('updateOutcome' as const),
    outcome: ref,
    status: fc.constantFrom('in_progress' as const, 'shipped' as const, 'abandoned' as const),
    stale: fc.boolean(),
  }),
  fc.record({ op: fc.constant('deleteOutcome' as const), outcome: ref }),
);

interface Side {
  tracker: Tracker;
  ws: SeededWorkspace;
  issues: string[];
  outcomes: string[];
  /** Runs one command; answers the status it got (the API's, or the one a tool result carries). */
  run(command: Command): Promise<number>;
  close(): Promise<void>;
}

async function openSide(adapter: AdapterUnderTest): Promise<{ tracker: Tracker; ws: SeededWorkspace }> {
  const storage = await adapter.create();
  const clock = fakeClock();
  const tracker = createTracker({ storage, clock, ids: countingIds(), rateLimit: false, onError: () => {} });
  const ws = await seedWorkspace(tracker, storage, tracker.ids, clock.now(), 'same', 'admin@same.test');
  return { tracker, ws };
}

const pick = (list: string[], index: number | undefined) =>
  index === undefined || list.length === 0 ? undefined : list[index % list.length];

/** The version of a resource as this side reads it now, one less when the command is stale. */
async function versionOf(tracker: Tracker, token: string, path: string, stale: boolean): Promise<number> {
  const current = await apiCall(tracker, token, 'GET', path);
  return (current.json?.version ?? 1) - (stale ? 1 : 0);
}

/** The commands through the HTTP API (the tracker's request pipeline). */
async function apiSide(adapter: AdapterUnderTest): Promise<Side> {
  const { tracker, ws } = await openSide(adapter);
  const side: Side = {
    tracker,
    ws,
    issues: [],
    outcomes: [],
    async run(c) {
      const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
        apiCall(tracker, ws.adminToken, method, path, body, headers);
      switch (c.op) {
        case 'createIssue': {
          const outcomeId = pick(side.outcomes, c.outcome);
          const body = {
            projectId: ws.projectId,
            title: c.title,
            ...(c.severity ? { severity: c.severity } : {}),
            ...(outcomeId ? { outcomeId } : {}),
          };
          let answer = await call('POST', '/issues', body, { 'idempotency-key': c.key });
          if (c.repeat) answer = await call('POST', '/issues', body, { 'idempotency-key': c.key });
          if (answer.status === 201) side.issues.push(answer.json.id);
          return answer.status;
        }
        case 'createOutcome': {
          const answer = await call(
            'POST',
            '/outcomes',
            { projectId: ws.projectId, title: c.title },
            { 'idempotency-key': c.key },
          );
          if (answer.status === 201) side.outcomes.push(answer.json.id);
          return answer.status;
        }
        case 'createDecision':
          return (
            await call(
              'POST',
              '/decisions',
              { projectId: ws.projectId, title: c.title, rationale: c.rationale },
              { 'idempotency-key': c.key },
            )
          ).status;
        case 'updateIssue': {
          const id = pick(side.issues, c.issue);
          if (!id) return 0;
          const version = await versionOf(tracker, ws.adminToken, `/issues/${id}`, c.stale);
          const body = {
            ...(c.title ? { title: c.title } : {}),
            ...(c.severity ? { severity: c.severity } : {}),
          };
          return (await call('PATCH', `/issues/${id}`, body, { 'if-match': `"${version}"` })).status;
        }
        case 'transition': {
          const id = pick(side.issues, c.issue);
          if (!id) return 0;
          return (await call('POST', `/issues/${id}/transition`, { to: c.to })).status;
        }
        case 'updateOutcome': {
          const id = pick(side.outcomes, c.outcome);
          if (!id) return 0;
          const version = await versionOf(tracker, ws.adminToken, `/outcomes/${id}`, c.stale);
          return (
            await call('PATCH', `/outcomes/${id}`, { status: c.status }, { 'if-match': `"${version}"` })
          ).status;
        }
        case 'deleteOutcome': {
          const id = pick(side.outcomes, c.outcome);
          if (!id) return 0;
          const status = (await call('DELETE', `/outcomes/${id}`)).status;
          if (status === 204) side.outcomes.splice(side.outcomes.indexOf(id), 1);
          return status;
        }
      }
    },
    close: () => tracker.close(),
  };
  return side;
}

/** The same commands as MCP tool calls, through the SDK's Client. */
async function toolSide(adapter: AdapterUnderTest): Promise<Side> {
  const { tracker, ws } = await openSide(adapter);
  const server = createMcpServer(tracker, { token: ws.adminToken });
  const [serverEnd, clientEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name: 'equivalence', version: '1.0.0' });
  await client.connect(clientEnd);
  const tool = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as ToolAnswer;
    return {
      status: result.isError ? result.structuredContent.status : result._meta['outcome-tracker'].status,
      result,
    };
  };
  const side: Side = {
    tracker,
    ws,
    issues: [],
    outcomes: [],
    async run(c) {
      switch (c.op) {
        case 'createIssue': {
          const outcomeId = pick(side.outcomes, c.outcome);
          const args = {
            projectId: ws.projectId,
            title: c.title,
            ...(c.severity ? { severity: c.severity } : {}),
            ...(outcomeId ? { outcomeId } : {}),
            idempotencyKey: c.key,
          };
          let answer = await tool('create_issue', args);
          if (c.repeat) answer = await tool('create_issue', args);
          if (answer.status === 201) side.issues.push(answer.result.structuredContent.id);
          return answer.status;
        }
        case 'createOutcome': {
          const answer = await tool('create_outcome', {
            projectId: ws.projectId,
            title: c.title,
            idempotencyKey: c.key,
          });
          if (answer.status === 201) side.outcomes.push(answer.result.structuredContent.id);
          return answer.status;
        }
        case 'createDecision':
          return (
            await tool('create_decision', {
              projectId: ws.projectId,
              title: c.title,
              rationale: c.rationale,
              idempotencyKey: c.key,
            })
          ).status;
        case 'updateIssue': {
          const id = pick(side.issues, c.issue);
          if (!id) return 0;
          const read = await tool('get_issue', { id });
          const version = read.result.structuredContent.version - (c.stale ? 1 : 0);
          return (
            await tool('update_issue', {
              id,
              ...(c.title ? { title: c.title } : {}),
              ...(c.severity ? { severity: c.severity } : {}),
              version,
            })
          ).status;
        }
        case 'transition': {
          const id = pick(side.issues, c.issue);
          if (!id) return 0;
          return (await tool('transition_issue', { id, to: c.to })).status;
        }
        case 'updateOutcome': {
          const id = pick(side.outcomes, c.outcome);
          if (!id) return 0;
          const read = await tool('get_outcome', { id });
          const version = read.result.structuredContent.version - (c.stale ? 1 : 0);
          return (await tool('update_outcome', { id, status: c.status, version })).status;
        }
        case 'deleteOutcome': {
          const id = pick(side.outcomes, c.outcome);
          if (!id) return 0;
          const status = (await tool('delete_outcome', { id })).status;
          if (status === 204) side.outcomes.splice(side.outcomes.indexOf(id), 1);
          return status;
        }
      }
    },
    close: async () => {
      await client.close();
      await tracker.close();
    },
  };
  return side;
}

/** Everything a side's database holds that the commands touch, read through the API. */
async function databaseOf(side: Side) {
  const all = async (path: string) => {
    const items: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page = await apiCall(
        side.tracker,
        side.ws.adminToken,
        'GET',
        `${path}?limit=200${cursor ? `&cursor=${cursor}` : ''}`,
      );
      items.push(...page.json.data);
      cursor = page.json.nextCursor;
    } while (cursor);
    return items;
  };
  const signals = (await all('/signals')) as { id: string }[];
  return {
    projects: await all('/projects'),
    outcomes: await all('/outcomes'),
    issues: await all('/issues'),
    decisions: await all('/decisions'),
    // Event ids are drawn per request, and a tool call may read before it writes: the rest must match.
    signals: signals.map(({ id: _id, ...event }) => event),
  };
}

describe('MCP tool calls and the HTTP API', () => {
  for (const adapter of adaptersUnderTest) {
    it(`give the same database for the same random operations, on ${adapter.name}`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 20 }), async (commands) => {
          const api = await apiSide(adapter);
          const tools = await toolSide(adapter);
          try {
            for (const c of commands) {
              const [viaApi, viaTools] = [await api.run(c), await tools.run(c)];
              expect(viaTools, JSON.stringify(c)).toBe(viaApi);
            }
            expect(await databaseOf(tools)).toEqual(await databaseOf(api));
          } finally {
            await api.close();
            await tools.close();
          }
        }),
        { numRuns: runsOn(adapter, 20) },
      );
    }, 120_000);
  }
});
