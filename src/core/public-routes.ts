import { openApiPathname } from './openapi/document.js';
import { referencePage, scalarBundlePath, scalarScript } from './openapi/reference-page.js';
import { servedDocument } from './openapi/served-document.js';
import type { PublicRoute } from './pipeline/runtime.js';

/** GET /healthz: 200 once storage has answered a query. No token needed. */
const health: PublicRoute = async (tx) => {
  await tx.tenancy.getWorkspace('ws_healthcheck');
  return { status: 200, body: { status: 'ok' }, headers: { 'Cache-Control': 'no-store' } };
};

/** Endpoints answered without a token (still rate limited by client address), by `METHOD /path`. */
export const publicRoutes: Record<string, PublicRoute> = {
  'GET /healthz': health,
  [`GET ${openApiPathname}`]: servedDocument,
  'GET /docs': referencePage,
  [`GET ${scalarBundlePath}`]: scalarScript,
};
