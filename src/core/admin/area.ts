import type { ApiError } from '../errors.js';
import { checkBodySize } from '../pipeline/body.js';
import type { Services } from '../pipeline/context.js';
import type { Reply } from '../pipeline/reply.js';
import type { ParsedRequest } from '../pipeline/request.js';
import type { StorageTx } from '../port/index.js';
import type { Clock, Ids } from '../runtime.js';
import { assets } from './assets.js';
import { parseCookies } from './cookies.js';
import { showHome } from './home-page.js';
import { showInvite, submitInvite } from './invite-pages.js';
import { messagePage, notFoundPage, pageSecurityHeaders } from './layout.js';
import {
  addMemberForm,
  changeRoleForm,
  confirmRemoveMember,
  inviteMemberForm,
  removeMemberForm,
  showMembers,
} from './member-pages.js';
import type { AdminContext, AdminRequest } from './request.js';
import { showSignIn, submitSignIn, submitSignOut } from './sign-in.js';
import { type SignInThrottle, signInThrottle } from './throttle.js';
import { confirmRevokeToken, createToken, revokeToken, showTokens } from './token-pages.js';
import { webhookAdminRoutes } from './webhook-pages.js';

/** Answers one admin request inside the pipeline's storage transaction. */
export type AdminHandler = (tx: StorageTx, req: ParsedRequest, nowMs: number) => Promise<Reply>;

/** The admin web pages: sign-in and each workspace's API tokens, server-rendered. */
export interface AdminArea {
  /** The handler for an admin path (a 405 page for a wrong method), or null for any other path. */
  match(method: string, path: string): AdminHandler | null;
  /**
   * Whether the page for a POST only reads in the pipeline's transaction (its writes, if any, in
   * its own short transaction after), so a read transaction suffices.
   */
  readsOnly(method: string, path: string): boolean;
  /** Whether errors on this path are shown as HTML pages rather than problem+json. */
  owns(path: string): boolean;
  /** An error the pipeline raised (429, 413, 500…) as a page. */
  errorPage(error: ApiError): Reply;
}

/** Paths outside /api that machines call (probes, MCP): their errors stay problem+json. */
const machinePaths = ['/healthz', '/readyz', '/mcp'];

type Page = (ctx: AdminContext, params: string[], services: Services) => Promise<Reply>;

interface AdminRoute {
  pattern: RegExp;
  methods: Partial<Record<string, Page>>;
  /** Methods whose page only reads in the pipeline's transaction (see AdminArea.readsOnly). */
  readOnly?: string[];
}

const tokenId = '(tok_[A-Za-z0-9]{1,64})';
const userId = '(usr_[A-Za-z0-9]{1,64})';
const slug = '([a-z0-9-]{1,63})';
const at = (path: string) => new RegExp(`^/${slug}/admin${path}$`);

const adminRoutes: AdminRoute[] = [
  {
    pattern: /^\/sign-in$/,
    methods: { GET: (ctx) => showSignIn(ctx), POST: (ctx) => submitSignIn(ctx) },
    // The password is checked after the transaction and the session started in one of its own.
    readOnly: ['POST'],
  },
  { pattern: /^\/sign-out$/, methods: { POST: (ctx) => submitSignOut(ctx) } },
  { pattern: at(''), methods: { GET: (ctx, [s = '']) => showHome(ctx, s) } },
  {
    pattern: at('/api-tokens'),
    methods: {
      GET: (ctx, [s = '']) => showTokens(ctx, s),
      POST: (ctx, [s = '']) => createToken(ctx, s),
    },
  },
  {
    pattern: at(`/api-tokens/${tokenId}/revoke`),
    methods: {
      GET: (ctx, [s = '', id = '']) => confirmRevokeToken(ctx, s, id),
      POST: (ctx, [s = '', id = '']) => revokeToken(ctx, s, id),
    },
  },
  {
    pattern: at('/members'),
    methods: {
      GET: (ctx, [s = ''], services) => showMembers(ctx, s, services),
      POST: (ctx, [s = ''], services) => addMemberForm(ctx, s, services),
    },
  },
  {
    pattern: at('/members/invite'),
    methods: { POST: (ctx, [s = ''], services) => inviteMemberForm(ctx, s, services) },
  },
  {
    // The invited member's page: the link's secret is the credential (no session, no CSRF token).
    pattern: /^\/invite\/([A-Za-z0-9_-]{43})$/,
    methods: {
      GET: (ctx, [token = '']) => showInvite(ctx, token),
      POST: (ctx, [token = '']) => submitInvite(ctx, token),
    },
    // The password is hashed after the transaction and set in one of its own.
    readOnly: ['POST'],
  },
  {
    pattern: at(`/members/${userId}/role`),
    methods: { POST: (ctx, [s = '', id = ''], services) => changeRoleForm(ctx, s, id, services) },
  },
  {
    pattern: at(`/members/${userId}/remove`),
    methods: {
      GET: (ctx, [s = '', id = ''], services) => confirmRemoveMember(ctx, s, id, services),
      POST: (ctx, [s = '', id = ''], services) => removeMemberForm(ctx, s, id, services),
    },
  },
  ...webhookAdminRoutes(slug),
];

const formType = 'application/x-www-form-urlencoded';
const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * The body of an admin POST. Forms are urlencoded; the API's JSON rules (and its 415) do not
 * apply here. Any other body counts as an empty form, which no handler accepts.
 */
function readForm(req: ParsedRequest): URLSearchParams {
  checkBodySize(req.headers, req.body);
  const media = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (req.body === null || media !== formType) return new URLSearchParams();
  return new URLSearchParams(typeof req.body === 'string' ? req.body : decoder.decode(req.body));
}

/**
 * Whether the browser reached us over https. The host says so for its own socket; behind a
 * TLS-terminating proxy we also believe `X-Forwarded-Proto: https`. Believing it can only add
 * `Secure` to a cookie, never remove it, so a client that lies merely loses its own cookie.
 */
const cameOverHttps = (req: ParsedRequest) =>
  req.secure || req.headers['x-forwarded-proto']?.split(',')[0]?.trim().toLowerCase() === 'https';

function adminRequest(req: ParsedRequest, method: string): AdminRequest {
  const queryAt = req.url.indexOf('?');
  return {
    method,
    path: req.path,
    query: new URLSearchParams(queryAt === -1 ? '' : req.url.slice(queryAt + 1)),
    form: method === 'POST' ? readForm(req) : new URLSearchParams(),
    cookies: parseCookies(req.headers.cookie),
    clientAddress: req.clientAddress,
    secure: cameOverHttps(req),
  };
}

const errorTitles: Record<number, string> = {
  404: 'Page not found',
  405: 'Method not allowed',
  413: 'Form too large',
  429: 'Too many requests',
};

/** Builds the admin area; its sign-in throttle lives as long as the tracker. */
export function createAdminArea(deps: { clock: Clock; ids: Ids; services: Services }): AdminArea {
  const throttle: SignInThrottle = signInThrottle(deps.clock);

  const match: AdminArea['match'] = (method, path) => {
    const asset = method === 'GET' ? assets[path] : undefined;
    if (asset) {
      return async () => ({
        status: 200,
        headers: { ...pageSecurityHeaders, 'Cache-Control': 'public, max-age=300' },
        text: asset,
      });
    }
    for (const route of adminRoutes) {
      const found = route.pattern.exec(path);
      if (!found) continue;
      const params = found.slice(1);
      const page = Object.hasOwn(route.methods, method) ? route.methods[method] : undefined;
      if (!page) {
        const allow = Object.keys(route.methods).join(', ');
        return async () =>
          messagePage(405, errorTitles[405] ?? 'Error', `Use ${allow} here.`, { headers: { Allow: allow } });
      }
      return async (tx, req, nowMs) =>
        page({ tx, nowMs, ids: deps.ids, throttle, req: adminRequest(req, method) }, params, deps.services);
    }
    return null;
  };

  return {
    match,
    readsOnly: (method, path) =>
      adminRoutes.some((route) => route.readOnly?.includes(method) && route.pattern.test(path)),
    // Every path outside the API: the admin pages, the docs pages, a mistyped URL. Browsers reach
    // them, so their errors are pages in the admin layout; the API, and anything under /api/ (a
    // client asking for another version), keeps problem+json.
    owns: (path) =>
      path !== '/api' && !path.startsWith('/api/') && !machinePaths.some((end) => path.endsWith(end)),
    errorPage: (error) =>
      error.status === 404
        ? notFoundPage(error)
        : messagePage(error.status, errorTitles[error.status] ?? 'Something went wrong', error.detail, {
            headers: error.headers,
          }),
  };
}
