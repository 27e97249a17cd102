import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { PublicRoute } from '../pipeline/runtime.js';
import { openApiPathname } from './document.js';

/** Where the page loads the renderer from: this server, never a CDN (hosts may have no internet). */
export const scalarBundlePath = '/docs/scalar.js';

// Scalar's own fonts, telemetry and agent live on scalar.com: all off, so the page works offline.
const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>outcome-tracker API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="${scalarBundlePath}"></script>
    <script>
      Scalar.createApiReference('#app', {
        url: '${openApiPathname}',
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
  text: { contentType: 'text/html; charset=utf-8', body: page },
  headers: { 'Cache-Control': 'no-cache' },
});

let bundle: Promise<string> | undefined;

/** Scalar's standalone browser bundle from the installed package, read once on first use. */
function scalarBundle(): Promise<string> {
  bundle ??= readFile(
    createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js'),
    'utf8',
  ).catch((error: unknown) => {
    bundle = undefined;
    throw error;
  });
  return bundle;
}

/** GET /docs/scalar.js: the renderer the reference page loads. */
export const scalarScript: PublicRoute = async () => ({
  status: 200,
  text: { contentType: 'text/javascript; charset=utf-8', body: await scalarBundle() },
  headers: { 'Cache-Control': 'public, max-age=86400' },
});
