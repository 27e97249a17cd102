import type { PublicRoute } from '../core/extension-kit.js';
import { html } from './html.js';
import { pageReply } from './layout.js';

/**
 * GET /: what a person who opens the server's address finds, in place of a JSON 404: what runs
 * here and the way to the docs, the settings and the probes. Mounted under a prefix, the links
 * follow it (the mount rewrites them).
 */
export const landingPage: PublicRoute = async () =>
  pageReply({
    title: 'outcome-tracker',
    body: html`<p>An outcome and issue tracking REST API. Clients call it at <code>/api/v1</code> with a
bearer token; people manage tokens, members and webhooks in the settings.</p>
<ul class="links">
  <li><a href="/docs">API reference</a>: every endpoint, tried from the browser</li>
  <li><a href="/docs/guide">API guide</a>: authentication, errors, pagination, webhooks, signals</li>
  <li><a href="/api/v1/openapi.json">OpenAPI document</a> (JSON)</li>
  <li><a href="/sign-in">Sign in</a> to a workspace's outcomes (progress and charts) and settings: API tokens, members, webhooks</li>
  <li><a href="/healthz">Health</a> and <a href="/readyz">readiness</a> probes</li>
</ul>`,
  });
