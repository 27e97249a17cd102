import type { Family } from '../../../src/core/families/family.js';
import { families } from '../../../src/core/families/index.js';
import type { SeededWorkspace, TestServer } from '../harness.js';
import type { Json } from './answers.js';
import { client } from './support.js';

/** Who a fixture acts as: a workspace and a read_write admin token of it. */
export interface Tenant {
  token: string;
  ws: SeededWorkspace;
}

export const mainTenant = (s: TestServer): Tenant => ({ token: s.tokens.admin, ws: s.ws });
export const otherTenant = (s: TestServer): Tenant => ({ token: s.other.adminToken, ws: s.other });

/** A valid create body of a family in a tenant; it creates what the body refers to first. */
export type BodyFactory = (s: TestServer, as: Tenant, n: number) => Promise<Record<string, unknown>>;

/** Creates an outcome in the tenant's seeded project. */
export const createOutcome = (
  s: TestServer,
  as: Tenant,
  fields: Record<string, unknown> = {},
): Promise<Json> =>
  client(s).create('/outcomes', { projectId: as.ws.projectId, title: 'Launch v2', ...fields }, as.token);

/** Creates an issue in the tenant's seeded project. */
export const createIssue = (s: TestServer, as: Tenant, fields: Record<string, unknown> = {}): Promise<Json> =>
  client(s).create('/issues', { projectId: as.ws.projectId, title: 'Crash on start', ...fields }, as.token);

/** Creates another project in the tenant's workspace. */
export const createProject = (s: TestServer, as: Tenant, name: string): Promise<Json> =>
  client(s).create('/projects', { name }, as.token);

/** One valid create body per data family (and webhooks), keyed by the collection path. */
export const validBodies: Record<string, BodyFactory> = {
  '/projects': async (_s, _as, n) => ({ name: `Project ${n}`, description: 'A project for tests' }),
  '/outcomes': async (_s, as, n) => ({
    projectId: as.ws.projectId,
    title: `Outcome ${n}`,
    description: 'Customers can pay by card',
    dueDate: '2026-12-31',
  }),
  '/context': async (s, as, n) => ({
    outcomeId: (await createOutcome(s, as)).id,
    kind: 'link',
    title: `Spec ${n}`,
    url: 'https://docs.example.com/spec',
  }),
  '/decisions': async (_s, as, n) => ({
    projectId: as.ws.projectId,
    title: `Decision ${n}`,
    rationale: 'Cheaper to run',
    participants: ['ana', 'bo'],
  }),
  '/issues': async (_s, as, n) => ({ projectId: as.ws.projectId, title: `Issue ${n}` }),
  '/time-entries': async (s, as, n) => ({
    outcomeId: (await createOutcome(s, as)).id,
    minutes: 30 + n,
    date: '2026-11-20',
    note: 'pairing',
  }),
  '/comments': async (s, as, n) => ({
    issueId: (await createIssue(s, as)).id,
    body: `Comment ${n}: seen on **Safari** too`,
  }),
  '/views': async (_s, _as, n) => ({
    name: `View ${n}`,
    resource: 'issues',
    query: 'status:open,blocked label:bug',
  }),
  '/webhooks': async (_s, _as, n) => ({
    url: `https://hooks.example.com/${n}`,
    eventTypes: ['issue.created'],
  }),
};

/** The create body each collection's create route (`POST /<collection>`) shows as its example. */
const exampleBodies: ReadonlyMap<string, unknown> = new Map(
  (families as readonly Family[])
    .filter((family) => family.collection)
    .flatMap((family) => family.routes)
    .filter((route) => route.kind === 'create' && /^\/[a-z-]+$/.test(route.path) && route.examples.request)
    .map((route) => [route.path, route.examples.request]),
);

/**
 * The collections with no body factory above, made from their create route's example (its
 * family's `examples.ts`): a family whose create refers to nothing (a new one, as `npm run
 * new-family` makes it) is exercised by the generated checks without a line here.
 */
export const exampleBodiedPaths: readonly string[] = [...exampleBodies.keys()].filter(
  (path) => !(path in validBodies),
);

/** A valid create body factory of the collection: its own above, or its create example. */
export function bodyFor(path: string): BodyFactory | undefined {
  const own = validBodies[path];
  if (own) return own;
  const example = exampleBodies.get(path);
  if (!exampleBodiedPaths.includes(path) || typeof example !== 'object' || example === null) return undefined;
  return async () => ({ ...(example as Record<string, unknown>) });
}
