import { families } from './families/index.js';
import type { Route } from './pipeline/route.js';

/** Every endpoint of /api/v1, the families' in the list's order: the one table the router, the tests and the docs read. */
export const routes: readonly Route[] = families.flatMap((family) => family.routes);
