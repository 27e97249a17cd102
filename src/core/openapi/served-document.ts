import { createHash } from 'node:crypto';
import type { Mount } from '../edge/mount.js';
import type { PublicRoute } from '../pipeline/runtime.js';
import { guidePathname, openApiDocument } from './document.js';

/**
 * GET /api/v1/openapi.json: the OpenAPI 3.1 document, no token needed. Serialized once per mount,
 * with its paths where the mount serves them, and an ETag of its content.
 */
export function servedDocument(mount: Mount): PublicRoute {
  let served: { body: string; etag: string } | undefined;
  return async () => {
    if (!served) {
      const document = openApiDocument();
      const paths = Object.fromEntries(
        Object.entries(document.paths).map(([path, item]) => [mount.outbound(path), item]),
      );
      const externalDocs = { ...document.externalDocs, url: mount.outbound(guidePathname) };
      const body = JSON.stringify({ ...document, externalDocs, paths });
      served = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    }
    return {
      status: 200,
      text: { contentType: 'application/json; charset=utf-8', body: served.body },
      // Revalidated on each use (it changes with an upgrade), cheaply: a 304 by its ETag.
      headers: { 'Cache-Control': 'public, no-cache', ETag: served.etag },
    };
  };
}
