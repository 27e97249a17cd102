import { batchRoutes } from './families/batch/routes.js';
import { commentRoutes } from './families/comments/routes.js';
import { contextRoutes } from './families/context/routes.js';
import { decisionRoutes } from './families/decisions/routes.js';
import { issueRoutes } from './families/issues/routes.js';
import { labelRoutes } from './families/labels/routes.js';
import { memberRoutes } from './families/members/routes.js';
import { outcomeRoutes } from './families/outcomes/routes.js';
import { projectRoutes } from './families/projects/routes.js';
import { relationRoutes } from './families/relations/routes.js';
import { signalRoutes } from './families/signals/routes.js';
import { timeEntryRoutes } from './families/time-entries/routes.js';
import { webhookRoutes } from './families/webhooks/routes.js';
import type { Route } from './pipeline/route.js';

/** Every endpoint of /api/v1: the one table the router, the tests and the docs read. */
export const routes: readonly Route[] = [
  ...projectRoutes,
  ...outcomeRoutes,
  ...contextRoutes,
  ...decisionRoutes,
  ...issueRoutes,
  ...relationRoutes,
  ...labelRoutes,
  ...timeEntryRoutes,
  ...commentRoutes,
  ...memberRoutes,
  ...webhookRoutes,
  ...signalRoutes,
  ...batchRoutes,
];
