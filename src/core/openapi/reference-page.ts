import type { PublicRoute } from '../pipeline/runtime.js';
import { sha256Hex } from '../sha256.js';
import { docsAsset } from './docs-assets.js';
import { guidePathname, openApiPathname } from './document.js';

/** Where the page loads the renderer from: this server, never a CDN (hosts may have no internet). */
export const scalarBundlePath = '/docs/scalar.js';
/** The API guide, rendered from docs/api.md at build time. */
export const guidePath = guidePathname;

/** A year, the longest cache lifetime HTTP caches honour: for URLs whose content never changes. */
const immutable = 'public, max-age=31536000, immutable';

// Scalar's own fonts, telemetry and agent live on scalar.com: all off, so the page works offline.
// Paths are the core's own; a mount rewrites the attributes (href, src, data-url) for where it serves them.
const page = (scalarVersion: string) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>outcome-tracker API reference</title>
  </head>
  <body>
    <nav style="font: 14px system-ui, sans-serif; padding: 8px 16px; border-bottom: 1px solid #ddd">
      <a href="${guidePath}">API guide</a> · <a href="${openApiPathname}">OpenAPI document (JSON)</a>
    </nav>
    <div id="app" data-url="${openApiPathname}"></div>
    <script src="${scalarBundlePath}?v=${scalarVersion}"></script>
    <script>
      const app = document.getElementById('app');
      Scalar.createApiReference(app, {
        url: app.dataset.url,
        withDefaultFonts: false,
        telemetry: false,
        agent: { disabled: true },
        showDeveloperTools: 'never',
      });
    </script>
  </body>
</html>
`;

/** GET /docs: the interactive API reference (Scalar) over the served OpenAPI document. */
export const referencePage: PublicRoute = async () => ({
  status: 200,
  text: { contentType: 'text/html; charset=utf-8', body: page((await docsAsset('scalar.js')).version) },
  headers: { 'Cache-Control': 'no-cache' },
});

/**
 * GET /docs/scalar.js?v=<content hash>: the renderer the reference page loads. The page names it
 * by its hash, so that URL may be cached for good; any other URL of it is revalidated.
 */
export const scalarScript: PublicRoute = async (_tx, req) => {
  const asset = await docsAsset('scalar.js');
  const current = new URLSearchParams(req.url.split('?')[1] ?? '').get('v') === asset.version;
  const headers = { 'Cache-Control': current ? immutable : 'public, no-cache', ETag: asset.etag };
  return { status: 200, text: { contentType: 'text/javascript; charset=utf-8', body: asset.body }, headers };
};

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
