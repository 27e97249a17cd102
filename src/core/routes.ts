import { issueRoutes } from './families/issues/routes.js';
import { projectRoutes } from './families/projects/routes.js';
import type { Route } from './pipeline/route.js';

/** Every endpoint of /api/v1: the one table the router, the tests and the docs read. */
export const routes: readonly Route[] = [...projectRoutes, ...issueRoutes];
