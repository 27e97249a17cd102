import { afterEach, describe, expect, it } from 'vitest';
import { type Role, tenancy } from '../../src/core/index.js';
import { adaptersUnderTest } from '../support/adapters.js';
import { type WebhookFixture, webhookFixture } from '../webhooks/fixture.js';

/**
 * The notification rules as one table: each step is a change made by someone, and names exactly
 * who is told of it, and as what. After every step each person's feed is read: what is new in it
 * must be exactly the step's row for them (nothing for everyone else). Never oneself, never
 * another workspace's or account's change, nothing for a member removed.
 */

type Person = 'alice' | 'bob' | 'carol' | 'dave' | 'erin' | 'frank' | 'gina';
const people: Person[] = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina'];
const roles: Record<Person, Role> = {
  alice: 'admin', // the fixture's admin, who creates the issue
  bob: 'member',
  carol: 'member',
  dave: 'member',
  erin: 'viewer',
  frank: 'member',
  gina: 'member',
};

interface World {
  f: WebhookFixture;
  tokens: Record<Person, string>;
  ids: Record<Person, string>;
  /** alice's token in a second workspace of the same account. */
  aliceElsewhere: string;
  issueId: string;
  outcomeId: string;
}

/** One row: who acts, what they do, and what each person is told (`kind` of the notification). */
interface Step {
  does: string;
  by: Person | 'operator';
  run(w: World): Promise<void>;
  told: Partial<Record<Person, string>>;
}

const steps: Step[] = [
  {
    does: 'creates an issue assigned to bob',
    by: 'alice',
    run: async (w) => {
      const res = await call(w, 'alice', 'POST', '/issues', {
        projectId: w.f.main.projectId,
        title: 'Checkout fails',
        assigneeId: w.ids.bob,
      });
      w.issueId = res.json.id;
    },
    told: { bob: 'assigned' },
  },
  {
    does: 'watches the issue (a viewer, by PUT)',
    by: 'erin',
    run: async (w) => {
      expect((await call(w, 'erin', 'PUT', `/issues/${w.issueId}/watchers/me`)).status).toBe(200);
    },
    told: {},
  },
  {
    does: 'watches the issue too',
    by: 'gina',
    run: async (w) => {
      expect((await call(w, 'gina', 'PUT', `/issues/${w.issueId}/watchers/me`)).status).toBe(200);
    },
    told: {},
  },
  {
    does: 'comments on it, mentioning dave (and an email of nobody here)',
    by: 'carol',
    run: async (w) => {
      await call(w, 'carol', 'POST', '/comments', {
        issueId: w.issueId,
        body: 'Seen on Safari too, @dave@acme.test and @stranger@elsewhere.test.',
      });
    },
    told: { alice: 'commented', bob: 'commented', erin: 'commented', gina: 'commented', dave: 'commented' },
  },
  {
    does: 'moves it to in_progress',
    by: 'bob',
    run: async (w) => {
      await call(w, 'bob', 'POST', `/issues/${w.issueId}/transition`, { to: 'in_progress' });
    },
    told: {
      alice: 'transitioned',
      carol: 'transitioned',
      erin: 'transitioned',
      gina: 'transitioned',
      dave: 'transitioned',
    },
  },
  {
    does: 'removes gina from the workspace',
    by: 'alice',
    run: async (w) => {
      const res = await call(w, 'alice', 'DELETE', `/members/${w.ids.gina}`);
      expect(res.status).toBe(204);
    },
    told: {},
  },
  {
    does: 'stops watching',
    by: 'erin',
    run: async (w) => {
      expect((await call(w, 'erin', 'DELETE', `/issues/${w.issueId}/watchers/me`)).status).toBe(204);
    },
    told: {},
  },
  {
    does: 'reassigns it to frank',
    by: 'carol',
    run: async (w) => {
      const current = await call(w, 'carol', 'GET', `/issues/${w.issueId}`);
      await call(
        w,
        'carol',
        'PATCH',
        `/issues/${w.issueId}`,
        { assigneeId: w.ids.frank },
        {
          'if-match': current.headers.ETag ?? current.headers.etag ?? '',
        },
      );
    },
    told: { alice: 'assigned', bob: 'assigned', dave: 'assigned', frank: 'assigned' },
  },
  {
    does: 'edits the title (not news for watchers)',
    by: 'bob',
    run: async (w) => {
      const current = await call(w, 'bob', 'GET', `/issues/${w.issueId}`);
      await call(
        w,
        'bob',
        'PATCH',
        `/issues/${w.issueId}`,
        { title: 'Checkout fails on Safari' },
        {
          'if-match': current.headers.ETag ?? current.headers.etag ?? '',
        },
      );
    },
    told: {},
  },
  {
    does: 'creates an outcome owned by dave, and comments on it',
    by: 'alice',
    run: async (w) => {
      const res = await call(w, 'alice', 'POST', '/outcomes', {
        projectId: w.f.main.projectId,
        title: 'Launch',
        ownerId: w.ids.dave,
      });
      w.outcomeId = res.json.id;
      await call(w, 'alice', 'POST', '/comments', { outcomeId: w.outcomeId, body: 'Kick-off on Monday.' });
    },
    told: { dave: 'assigned,commented' },
  },
  {
    does: 'ships the outcome',
    by: 'dave',
    run: async (w) => {
      const current = await call(w, 'dave', 'GET', `/outcomes/${w.outcomeId}`);
      await call(
        w,
        'dave',
        'PATCH',
        `/outcomes/${w.outcomeId}`,
        { status: 'shipped' },
        {
          'if-match': current.headers.ETag ?? current.headers.etag ?? '',
        },
      );
    },
    told: { alice: 'transitioned' },
  },
  {
    does: 'comments on the issue from the CLI (no user: everyone watching is told)',
    by: 'operator',
    run: async (w) => {
      const { comments } = await import('../../src/core/index.js');
      await w.f.tracker.run({ workspaceSlug: w.f.main.slug }, (ctx) =>
        comments.create(ctx, { issueId: w.issueId, body: 'Triaged.' }),
      );
    },
    told: {
      alice: 'commented',
      bob: 'commented',
      carol: 'commented',
      dave: 'commented',
      frank: 'commented',
    },
  },
  {
    does: 'announces that the issue is overdue (the service: every watcher is told)',
    by: 'operator',
    run: async (w) => {
      // What the due-date sweep announces when the issue's due day passes while it is open.
      const { issues } = await import('../../src/core/index.js');
      await w.f.tracker.run({ workspaceSlug: w.f.main.slug }, async (ctx) => {
        const issue = await issues.get(ctx, w.issueId);
        await ctx.emit({
          type: 'issue.overdue',
          resource: { type: 'issue', id: issue.id },
          data: { object: issue },
        });
      });
    },
    told: { alice: 'overdue', bob: 'overdue', carol: 'overdue', dave: 'overdue', frank: 'overdue' },
  },
  {
    does: "changes things in another account and in alice's other workspace",
    by: 'alice',
    run: async (w) => {
      // Another account's admin comments on their own issue…
      const theirs = await w.f.api('POST', '/issues', {
        token: w.f.other.token,
        body: { projectId: w.f.other.projectId, title: 'Theirs' },
      });
      await w.f.api('POST', '/comments', {
        token: w.f.other.token,
        body: { issueId: theirs.json.id, body: 'Nothing to do with acme.' },
      });
      // …and alice creates an issue in her second workspace, which the operator comments on:
      // her feed there has it, her feed here does not.
      const project = await w.f.api('POST', '/projects', { token: w.aliceElsewhere, body: { name: 'Two' } });
      const there = await w.f.api('POST', '/issues', {
        token: w.aliceElsewhere,
        body: { projectId: project.json.id, title: 'Elsewhere' },
      });
      const { comments } = await import('../../src/core/index.js');
      await w.f.tracker.run({ workspaceSlug: 'acme-two' }, (ctx) =>
        comments.create(ctx, { issueId: there.json.id, body: 'Over here.' }),
      );
    },
    told: {},
  },
];

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON members
type Reply = { status: number; headers: Record<string, string>; json: any };

async function call(
  w: World,
  who: Person,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await w.f.api(method, path, {
    token: w.tokens[who],
    ...(body !== undefined ? { body } : {}),
    headers,
  });
  if (res.status >= 400) {
    throw new Error(`${who} ${method} ${path} answered ${res.status}: ${JSON.stringify(res.json)}`);
  }
  w.f.clock.advance(1000);
  return res;
}

describe.each(adaptersUnderTest)('notification rules ($name)', (adapter) => {
  let f: WebhookFixture | undefined;
  afterEach(async () => {
    await f?.close();
    f = undefined;
  });

  it('tells exactly the watchers of each change, never its author, never across workspaces, not after removal', async () => {
    f = await webhookFixture({ storage: await adapter.create() });
    const fixture = f;
    const tokens = { alice: fixture.main.token } as Record<Person, string>;
    const ids = {} as Record<Person, string>;
    const made = await fixture.storage.transaction(async (tx) => {
      const deps = { tx, ids: fixture.tracker.ids, now: fixture.clock.now() };
      const admin = await tx.tenancy.getUserByEmail('admin@acme.test');
      ids.alice = admin?.id ?? '';
      for (const person of people.filter((p) => p !== 'alice')) {
        const { user } = await tenancy.addMember(deps, {
          workspaceId: fixture.main.workspaceId,
          email: `${person}@acme.test`,
          role: roles[person],
        });
        ids[person] = user.id;
        const { plain } = await tenancy.issueToken(deps, {
          workspaceId: fixture.main.workspaceId,
          userId: user.id,
          name: person,
          scope: 'read_write',
        });
        tokens[person] = plain;
      }
      // A second workspace of the same account, where alice is a member too.
      const second = {
        id: fixture.tracker.ids.id('ws'),
        accountId: fixture.main.accountId,
        slug: 'acme-two',
        name: 'acme-two',
        createdAt: new Date(deps.now).toISOString(),
      };
      await tx.tenancy.insertWorkspace(second);
      await tenancy.addMember(deps, { workspaceId: second.id, email: 'admin@acme.test', role: 'admin' });
      const { plain } = await tenancy.issueToken(deps, {
        workspaceId: second.id,
        userId: ids.alice,
        name: 'alice elsewhere',
        scope: 'read_write',
        accountId: fixture.main.accountId,
      });
      return plain;
    });
    const w: World = { f: fixture, tokens, ids, aliceElsewhere: made, issueId: '', outcomeId: '' };

    const seen: Record<Person, Set<string>> = Object.fromEntries(people.map((p) => [p, new Set()])) as never;
    const newFor = async (person: Person): Promise<string[] | 'refused'> => {
      const res = await fixture.api('GET', '/notifications?limit=200', { token: tokens[person] });
      if (person === 'gina' && res.status === 401) return 'refused';
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      const fresh = (res.json.data as { id: string; kind: string; actor: { userId: string | null } }[])
        .filter((n) => !seen[person].has(n.id))
        .reverse();
      for (const n of fresh) {
        seen[person].add(n.id);
        // Never one's own action.
        expect(n.actor.userId).not.toBe(ids[person]);
      }
      return fresh.map((n) => n.kind);
    };

    let ginaRemoved = false;
    for (const step of steps) {
      await step.run(w);
      if (step.does.startsWith('removes gina')) ginaRemoved = true;
      for (const person of people) {
        const got = await newFor(person);
        const expected = step.told[person]?.split(',') ?? [];
        if (person === 'gina' && ginaRemoved) {
          expect(got, `gina after "${step.does}"`).toBe('refused');
          continue;
        }
        expect(got, `${person} after ${step.by} ${step.does}`).toEqual(expected);
      }
    }

    // Alice's feed in her other workspace holds its one comment, and nothing of the first.
    const elsewhere = await fixture.api('GET', '/notifications', { token: w.aliceElsewhere });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.json.total).toBe(1);
    expect(elsewhere.json.data[0]).toMatchObject({ kind: 'commented', item: { title: 'Elsewhere' } });

    // Gina added back: her old watches went with her removal, so nothing from before shows.
    await fixture.storage.transaction(async (tx) => {
      const deps = { tx, ids: fixture.tracker.ids, now: fixture.clock.now() };
      await tenancy.addMember(deps, {
        workspaceId: fixture.main.workspaceId,
        email: 'gina@acme.test',
        role: 'member',
      });
      const { plain } = await tenancy.issueToken(deps, {
        workspaceId: fixture.main.workspaceId,
        userId: ids.gina,
        name: 'gina again',
        scope: 'read',
      });
      tokens.gina = plain;
    });
    const back = await fixture.api('GET', '/notifications', { token: tokens.gina });
    expect(back.json.total).toBe(0);
    const watchers = await fixture.api('GET', `/issues/${w.issueId}/watchers`, { token: tokens.gina });
    expect(watchers.json.data.map((x: { userId: string; reason: string }) => [x.userId, x.reason])).toEqual(
      expect.arrayContaining([
        [ids.alice, 'creator'],
        [ids.bob, 'assignee'],
        [ids.carol, 'commenter'],
        [ids.dave, 'mentioned'],
        [ids.frank, 'assignee'],
      ]),
    );
    expect(watchers.json.total).toBe(5);
  });
});
