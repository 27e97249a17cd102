import { ok } from '../../pipeline/reply.js';
import { defineRoute } from '../../pipeline/route.js';
import { listLabels } from './operations.js';
import { labelListQuerySchema, labelPageSchema } from './schema.js';

const example = { data: [{ name: 'safari', issueCount: 3 }], nextCursor: null, total: 1 };

export const labelRoutes = [
  defineRoute({
    method: 'GET',
    path: '/labels',
    access: 'read',
    kind: 'read',
    operationId: 'listLabels',
    summary: 'List labels',
    description:
      "One page of the labels the workspace's issues carry, in name order (by code point), each with how many issues carry it, archived ones included (the total of `GET /issues?labels=<name>&archived=true`). A label no issue carries any more is not listed. Follow `nextCursor` (null on the last page) for the next page; `total` counts every label.",
    examples: { response: example },
    query: labelListQuerySchema,
    response: labelPageSchema,
    handle: async (ctx, { query }) => ok(await listLabels(ctx, query)),
  }),
];
