import { defineFamily } from '../family.js';
import { labelRoutes } from './routes.js';
import { labelPageSchema, labelSchema } from './schema.js';

/** The labels a workspace's issues carry: read from the issues' label index, never written. */
export const labelsFamily = defineFamily({
  name: 'labels',
  routes: labelRoutes,
  about:
    "The labels the workspace's issues carry, each with how many issues carry it; find those issues with `labels` or `labelsAny`.",
  schemas: { responses: { Label: labelSchema, LabelPage: labelPageSchema } },
});
