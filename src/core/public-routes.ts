import type { Mount } from './edge/mount.js';
import { openApiPathname } from './openapi/document.js';
import { guidePage, guidePath, referencePage } from './openapi/reference-page.js';
import { servedDocument } from './openapi/served-document.js';
import type { PublicRoute } from './pipeline/runtime.js';

/**
 * The core's endpoints answered without a token (still rate limited by client address), by
 * `METHOD /path`; extensions add theirs (see extension.ts).
 * /healthz and /readyz are answered before the pipeline (see probes.ts and pipeline/probe-paths.ts).
 */
export function publicRoutes(mount: Mount): Record<string, PublicRoute> {
  return {
    [`GET ${openApiPathname}`]: servedDocument(mount),
    'GET /docs': referencePage(mount),
    [`GET ${guidePath}`]: guidePage,
  };
}
