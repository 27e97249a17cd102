import { createHash } from 'node:crypto';
import type { Mount } from '../edge/mount.js';
import type { PublicRoute } from '../pipeline/runtime.js';
import { sha256Hex } from '../sha256.js';
import { docsAsset } from './docs-assets.js';
import { guidePathname, openApiDocument } from './document.js';
import { referenceHtml } from './reference-html.js';

/** The API guide, rendered from docs/api.md at build time. */
export const guidePath = guidePathname;

/**
 * GET /docs: the API reference, rendered on the server from the OpenAPI document once per mount
 * (its paths where the mount serves them), with an ETag of its content.
 */
export function referencePage(mount: Mount): PublicRoute {
  let rendered: { body: string; etag: string } | undefined;
  return async () => {
    if (!rendered) {
      const body = referenceHtml(openApiDocument(), mount.outbound);
      rendered = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    }
    return {
      status: 200,
      text: { contentType: 'text/html; charset=utf-8', body: rendered.body },
      headers: { 'Cache-Control': 'public, no-cache', ETag: rendered.etag },
    };
  };
}

/** The origin the guide's examples use; the page shows the one the reader reached instead. */
const guideExampleOrigin = 'http://127.0.0.1:3000';
const plainHost = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * GET /docs/guide: the API guide as a page, linked from the reference page. Its examples name
 * `http://127.0.0.1:3000`; served, they name the host the request came to (a host that is not a
 * plain name or address is left alone, so nothing a client sends reaches the page unchecked).
 */
export const guidePage: PublicRoute = async (_tx, req) => {
  const asset = await docsAsset('guide.html');
  const host = req.headers.host ?? '';
  const origin = plainHost.test(host) ? `${req.secure ? 'https' : 'http'}://${host}` : guideExampleOrigin;
  return {
    status: 200,
    text: {
      contentType: 'text/html; charset=utf-8',
      body: asset.body.replaceAll(guideExampleOrigin, origin),
    },
    headers: {
      'Cache-Control': 'public, no-cache',
      ETag:
        origin === guideExampleOrigin
          ? asset.etag
          : `${asset.etag.slice(0, -1)}-${sha256Hex(origin).slice(0, 12)}"`,
    },
  };
};
