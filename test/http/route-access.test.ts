import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Route } from '../../src/core/pipeline/route.js';
import { routes } from '../../src/core/routes.js';
import { expectProblem, type Json } from './families/answers.js';
import {
  bodyFor,
  createIssue,
  exampleBodiedPaths,
  mainTenant,
  otherTenant,
  type Tenant,
} from './families/fixtures.js';
import { signalsOf } from './families/signals.js';
import { client } from './families/support.js';
import { type ApiResponse, hosts, newKey, startServer, type TestServer } from './harness.js';

/**
 * A generated check of every mutating route in the route table: a `read` token and a viewer get
 * 403 (a member too where admins only may write), another workspace's ids get 404, nothing a
 * refused request touches changes, and a body cannot set the fields the service owns.
 */

/** What a request acts on, made in one tenant: the path's parameters and a valid body. */
interface Prepared {
  params: Record<string, string>;
  body?: Record<string, unknown>;
}
type Recipe = (s: TestServer, as: Tenant) => Promise<Prepared>;

const create = (s: TestServer, as: Tenant, path: string, body: unknown): Promise<Json> =>
  client(s).create(path, body, as.token);

/** A valid create body per collection, from the family fixtures (or the family's create example). */
const createRecipe =
  (path: string): Recipe =>
  async (s, as) => {
    const factory = bodyFor(path);
    if (!factory) throw new Error(`no valid body for ${path}`);
    return { params: {}, body: await factory(s, as, 1) };
  };

/** An item of the collection made through the API, with an optional body for the request on it. */
const itemRecipe =
  (path: string, body?: Record<string, unknown>): Recipe =>
  async (s, as) => {
    const factory = bodyFor(path);
    if (!factory) throw new Error(`no valid body for ${path}`);
    const item = await create(s, as, path, await factory(s, as, 1));
    return { params: { id: item.id }, ...(body ? { body } : {}) };
  };

/** A new viewer of the tenant's workspace, added through the members API. */
const member = (s: TestServer, as: Tenant) =>
  create(s, as, '/members', { email: `${newKey()}@example.test`, role: 'viewer' });

const webhook = (s: TestServer, as: Tenant, eventTypes = ['project.created']) =>
  create(s, as, '/webhooks', { url: 'https://hooks.example.com/in', eventTypes });

/**
 * The standard routes of a collection whose create example is its valid body (fixtures.ts,
 * exampleBodiedPaths): create, change by its update example, delete. A family made by `npm run
 * new-family` is checked by these with no entry below.
 */
const standardRecipes = (path: string): Record<string, Recipe> => {
  const update = routes.find((route) => route.method === 'PATCH' && route.path === `${path}/:id`);
  return {
    [`POST ${path}`]: createRecipe(path),
    ...(update
      ? { [`PATCH ${path}/:id`]: itemRecipe(path, update.examples.request as Record<string, unknown>) }
      : {}),
    ...(routes.some((route) => route.method === 'DELETE' && route.path === `${path}/:id`)
      ? { [`DELETE ${path}/:id`]: itemRecipe(path) }
      : {}),
  };
};

/**
 * One valid request per mutating route, keyed `METHOD /path`. A new mutating route needs an entry
 * here, but for the standard routes of a collection whose create example is a valid body.
 */
const recipes: Record<string, Recipe> = {
  ...Object.assign({}, ...exampleBodiedPaths.map(standardRecipes)),
  'POST /projects': createRecipe('/projects'),
  'PATCH /projects/:id': itemRecipe('/projects', { name: 'Renamed' }),
  'POST /outcomes': createRecipe('/outcomes'),
  'PATCH /outcomes/:id': itemRecipe('/outcomes', { status: 'shipped' }),
  'DELETE /outcomes/:id': itemRecipe('/outcomes'),
  'POST /context': createRecipe('/context'),
  'DELETE /context/:id': itemRecipe('/context'),
  'POST /decisions': createRecipe('/decisions'),
  'PATCH /decisions/:id': itemRecipe('/decisions', { status: 'accepted' }),
  'POST /issues': createRecipe('/issues'),
  'PATCH /issues/:id': itemRecipe('/issues', { severity: 'high' }),
  'POST /issues/:id/archive': itemRecipe('/issues'),
  'POST /issues/:id/unarchive': itemRecipe('/issues'),
  'POST /outcomes/:id/archive': itemRecipe('/outcomes'),
  'POST /outcomes/:id/unarchive': itemRecipe('/outcomes'),
  'POST /issues/:id/relations': async (s, as) => ({
    params: { id: (await createIssue(s, as)).id },
    body: { type: 'blocks', issueId: (await createIssue(s, as)).id },
  }),
  'DELETE /issues/:id/relations/:relationId': async (s, as) => {
    const [a, b] = [await createIssue(s, as), await createIssue(s, as)];
    const made = await create(s, as, `/issues/${a.id}/relations`, { type: 'blocks', issueId: b.id });
    return { params: { id: a.id, relationId: made.id } };
  },
  'POST /issues/:id/transition': async (s, as) => ({
    params: { id: (await createIssue(s, as)).id },
    body: { to: 'blocked' },
  }),
  'POST /time-entries': createRecipe('/time-entries'),
  'PATCH /time-entries/:id': itemRecipe('/time-entries', { minutes: 45 }),
  'DELETE /time-entries/:id': itemRecipe('/time-entries'),
  'POST /comments': createRecipe('/comments'),
  'PATCH /comments/:id': itemRecipe('/comments', { body: 'Edited' }),
  'DELETE /comments/:id': itemRecipe('/comments'),
  'POST /views': createRecipe('/views'),
  'PATCH /views/:id': itemRecipe('/views', { name: 'Renamed' }),
  'DELETE /views/:id': itemRecipe('/views'),
  'POST /members': async () => ({ params: {}, body: { email: `${newKey()}@acme.test`, role: 'viewer' } }),
  'PATCH /members/:id': async (s, as) => ({
    params: { id: (await member(s, as)).id },
    body: { role: 'member' },
  }),
  'DELETE /members/:id': async (s, as) => ({ params: { id: (await member(s, as)).id } }),
  'POST /members/invites': async () => ({
    params: {},
    body: { email: `${newKey()}@acme.test`, role: 'viewer' },
  }),
  'POST /notifications/read': async () => ({ params: {}, body: { upTo: 1 } }),
  'PUT /issues/:id/watchers/me': async (s, as) => ({ params: { id: (await createIssue(s, as)).id } }),
  'DELETE /issues/:id/watchers/me': async (s, as) => ({ params: { id: (await createIssue(s, as)).id } }),
  'PUT /outcomes/:id/watchers/me': itemRecipe('/outcomes'),
  'DELETE /outcomes/:id/watchers/me': itemRecipe('/outcomes'),
  'POST /webhooks': createRecipe('/webhooks'),
  'PATCH /webhooks/:id': itemRecipe('/webhooks', { description: 'CI' }),
  'DELETE /webhooks/:id': itemRecipe('/webhooks'),
  'POST /webhooks/:id/rotate-secret': itemRecipe('/webhooks'),
  'POST /webhooks/:id/test': itemRecipe('/webhooks'),
  'POST /webhooks/:id/replay': itemRecipe('/webhooks', { after: 0 }),
  'POST /webhooks/:id/deliveries/:deliveryId/retry': async (s, as) => {
    const hook = await webhook(s, as);
    await create(s, as, '/projects', { name: 'Hermes' });
    const deliveries = await client(s).list(`/webhooks/${hook.id}/deliveries`, as.token);
    expect(deliveries.data).toHaveLength(1);
    return { params: { id: hook.id, deliveryId: deliveries.data[0].id } };
  },
};

// The batch changes nothing of its own: each of its operations is checked as the route alone
// (test/http/families/batch.ts), and its strict body has no service-owned field to forge.
const isMutating = (route: Route) => route.method !== 'GET' && !route.runsOperations;
const keyOf = (route: Route) => `${route.method} ${route.path}`;

/** The fields no body may set (CONTRACT §2, §5), with values no server would choose. */
const forged = {
  id: 'forged_1',
  version: 99,
  accountId: 'acct_forged',
  workspaceId: 'ws_forged',
  createdAt: '2001-01-01T00:00:00.000Z',
  userId: 'usr_forged',
};

const urlOf = (route: Route, params: Record<string, string>) =>
  `/api/v1${route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${keyOf(route)}: no value for :${name}`);
    return value;
  })}`;

/** Sends the route's request with the headers its kind needs (a fresh Idempotency-Key, If-Match: *). */
function send(s: TestServer, route: Route, token: string, prepared: Prepared, body = prepared.body) {
  const headers: Record<string, string> = {};
  if (route.kind === 'create' || route.kind === 'action') headers['Idempotency-Key'] = newKey();
  if (route.kind === 'update') headers['If-Match'] = '*';
  return s.api(route.method, urlOf(route, prepared.params), {
    token,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
}

const otherSignals = (s: TestServer) =>
  s.storage.transaction((tx) => tx.signals.list({ accountId: s.other.accountId, limit: 1000 }));

/** Ids a body refers to (`prj_…`, `out_…`…): a create naming another workspace's must get 422. */
const referencesIn = (body: Record<string, unknown> = {}) =>
  Object.values(body).filter((v) => typeof v === 'string' && /^(prj|out|iss|dec)_/.test(v));

/** The answer of a successful request, checked to hold none of the forged values. */
function expectServerValues(res: ApiResponse, route: Route, prepared: Prepared, userId: string): void {
  expect(res.status, `${keyOf(route)} answered ${res.status}: ${res.text}`).toBeLessThan(300);
  const answer: Record<string, unknown> = res.json ?? {};
  for (const [field, value] of Object.entries(forged)) expect(answer[field]).not.toBe(value);
  expect(answer).not.toHaveProperty('workspaceId');
  if (route.kind === 'update' || route.path.endsWith('/transition'))
    expect(answer.id).toBe(prepared.params.id);
  // A member's userId is the member's own; elsewhere it is the caller's.
  if ('userId' in answer && !route.path.startsWith('/members')) expect(answer.userId).toBe(userId);
}

describe('the route table', () => {
  it('has a valid request recipe for every mutating route, and none for a route that does not exist', () => {
    const mutating = routes.filter(isMutating).map(keyOf);
    expect(mutating.filter((key) => !(key in recipes))).toEqual([]);
    expect(Object.keys(recipes).filter((key) => !mutating.includes(key))).toEqual([]);
  });
});

for (const host of hosts) {
  describe(`access to every mutating route through the ${host} host`, () => {
    let s: TestServer;
    beforeEach(async () => {
      s = await startServer(host, { rateLimit: false });
    });
    afterEach(async () => {
      await s.close();
    });

    for (const route of routes.filter(isMutating)) {
      const adminsOnly = route.access === 'admin_write';
      // The caller's own watch or read marker: a viewer and a read token keep theirs too.
      const personal = route.access === 'read';
      const whoMayNot = personal ? 'allowed to read tokens and viewers' : '403 for read tokens and viewers';
      it(`${keyOf(route)}: ${whoMayNot}${adminsOnly ? ' and members' : ''}, 404 across workspaces, no service-owned field set`, async () => {
        const recipe = recipes[keyOf(route)];
        if (!recipe) throw new Error(`no valid request for ${keyOf(route)}: add one to the recipes`);
        const mine = await recipe(s, mainTenant(s));
        const theirs = await recipe(s, otherTenant(s));
        const before = { mine: await signalsOf(s), theirs: await otherSignals(s) };

        if (personal) {
          for (const token of [s.tokens.read.plain, s.tokens.viewer.plain]) {
            const res = await send(s, route, token, mine);
            expect(res.status, `${keyOf(route)} answered ${res.status}: ${res.text}`).toBeLessThan(300);
          }
        } else {
          expectProblem(await send(s, route, s.tokens.read.plain, mine), 403, 'insufficient_scope');
          expectProblem(await send(s, route, s.tokens.viewer.plain, mine), 403, 'forbidden');
        }
        if (adminsOnly) expectProblem(await send(s, route, s.tokens.member.plain, mine), 403, 'forbidden');

        if (route.path.includes(':')) {
          // Another workspace's ids, with a body valid in the caller's own workspace.
          const foreign = await send(s, route, s.tokens.admin, { params: theirs.params }, mine.body);
          expectProblem(foreign, 404, 'not_found');
        } else if (referencesIn(theirs.body).length > 0) {
          expectProblem(await send(s, route, s.tokens.admin, theirs), 422, 'invalid_reference');
        }
        expect(await otherSignals(s)).toEqual(before.theirs);
        expect(await signalsOf(s)).toEqual(before.mine);

        // The fields the service owns: a body schema ignores them; a route without a body refuses any.
        const target = mine;
        if (route.body) {
          const res = await send(s, route, s.tokens.admin, target, { ...target.body, ...forged });
          expectServerValues(res, route, target, s.ws.adminUserId);
          // What was stored keeps the server's values too, read back through the item's GET (an
          // action answering a report, such as a replay's count, stored no item).
          if (res.json.id !== undefined) {
            const stored = await storedView(s, route, res.json.id, target.params);
            for (const [field, value] of Object.entries(forged)) expect(stored[field]).not.toBe(value);
          }
        } else {
          const signalsBefore = await signalsOf(s);
          expectProblem(await send(s, route, s.tokens.admin, target, forged), 400, 'validation_failed');
          expect(await signalsOf(s)).toEqual(signalsBefore);
          const res = await send(s, route, s.tokens.admin, target);
          expect(res.status, `${keyOf(route)} answered ${res.status}: ${res.text}`).toBeLessThan(300);
        }
      });
    }
  });
}

/** The item a route wrote, as its family's GET answers it afterwards. */
async function storedView(
  s: TestServer,
  route: Route,
  id: string,
  params: Record<string, string>,
): Promise<Record<string, unknown>> {
  // A relation has no GET of its own: its issue's list of relations shows it.
  if (route.path.endsWith('/relations')) {
    const listed = await client(s).list(`/issues/${params.id}/relations`);
    return listed.data.find((relation: { id: string }) => relation.id === id);
  }
  const collection = route.path.split('/')[1];
  const res = await client(s).get(`/${collection}/${id}`);
  expect(res.status, `GET /${collection}/${id} answered ${res.status}`).toBe(200);
  return res.json;
}
