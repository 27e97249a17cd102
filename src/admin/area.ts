import type {
  ApiError,
  ExtensionRoute,
  Ids,
  MountedExtension,
  ParsedRequest,
  Reply,
  Services,
  TrackerExtension,
} from '../core/extension-kit.js';
import { checkBodySize, owaspScryptCost, type ScryptCost } from '../core/extension-kit.js';
import { assets } from './assets.js';
import { parseCookies } from './cookies.js';
import { showHome } from './home-page.js';
import { showInvite, submitInvite } from './invite-pages.js';
import { landingPage } from './landing-page.js';
import { messagePage, notFoundPage, pageSecurityHeaders } from './layout.js';
import {
  addMemberForm,
  changeRoleForm,
  confirmRemoveMember,
  inviteMemberForm,
  removeMemberForm,
  showMembers,
} from './member-pages.js';
import { showOutcome, showOutcomes } from './outcome-pages.js';
import { type AdminPasswords, adminPasswords } from './passwords.js';
import type { AdminContext, AdminRequest } from './request.js';
import { showSignIn, submitSignIn, submitSignOut } from './sign-in.js';
import { type SignInThrottle, signInThrottle } from './throttle.js';
import { confirmRevokeToken, createToken, revokeToken, showTokens } from './token-pages.js';
import { webhookAdminRoutes } from './webhook-pages.js';

/** Paths outside /api that machines call (probes, MCP): their errors stay problem+json. */
const machinePaths = ['/healthz', '/readyz', '/mcp'];

type Page = (ctx: AdminContext, params: string[], services: Services) => Promise<Reply>;

interface AdminRoute {
  pattern: RegExp;
  methods: Partial<Record<string, Page>>;
  /**
   * Methods whose page only reads in the pipeline's transaction (its writes, if any, in its own
   * short transaction after), so a read transaction suffices.
   */
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
  // The outcome pages: every signed-in member's, viewers included (not only admins' settings).
  {
    pattern: new RegExp(`^/${slug}/outcomes$`),
    methods: { GET: (ctx, [s = '']) => showOutcomes(ctx, s) },
    readOnly: ['GET'],
  },
  {
    pattern: new RegExp(`^/${slug}/outcomes/(out_[A-Za-z0-9]{1,64})$`),
    methods: { GET: (ctx, [s = '', id = '']) => showOutcome(ctx, s, id) },
    readOnly: ['GET'],
  },
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
    ...(req.headers['if-none-match'] !== undefined ? { ifNoneMatch: req.headers['if-none-match'] } : {}),
  };
}

const errorTitles: Record<number, string> = {
  404: 'Page not found',
  405: 'Method not allowed',
  413: 'Form too large',
  429: 'Too many requests',
};

/** The page an admin path answers (a 405 page for a wrong method), or null for any other path. */
function matchPage(
  deps: { ids: Ids; services: Services; throttle: SignInThrottle; passwords: AdminPasswords },
  method: string,
  path: string,
): ExtensionRoute | null {
  const asset = method === 'GET' ? assets[path] : undefined;
  if (asset) {
    const answer = async (): Promise<Reply> => ({
      status: 200,
      headers: { ...pageSecurityHeaders, 'Cache-Control': 'public, max-age=300' },
      text: asset,
    });
    return { readsOnly: true, answer };
  }
  for (const route of adminRoutes) {
    const found = route.pattern.exec(path);
    if (!found) continue;
    const params = found.slice(1);
    const readsOnly = route.readOnly?.includes(method) ?? false;
    const page = Object.hasOwn(route.methods, method) ? route.methods[method] : undefined;
    if (!page) {
      const allow = Object.keys(route.methods).join(', ');
      const answer = async () =>
        messagePage(405, errorTitles[405] ?? 'Error', `Use ${allow} here.`, { headers: { Allow: allow } });
      return { readsOnly, answer };
    }
    const { ids, throttle, passwords, services } = deps;
    return {
      readsOnly,
      answer: ({ tx, req, nowMs }) =>
        page({ tx, nowMs, ids, throttle, passwords, req: adminRequest(req, method) }, params, services),
    };
  }
  return null;
}

/**
 * Every path outside the API: the admin pages, the docs pages, a mistyped URL. Browsers reach
 * them, so their errors are pages in the admin layout; the API, and anything under /api/ (a
 * client asking for another version), keeps problem+json.
 */
const showsPages = (path: string): boolean =>
  path !== '/api' && !path.startsWith('/api/') && !machinePaths.some((end) => path.endsWith(end));

/** An error the pipeline raised (429, 413, 500…) as a page. */
const errorPage = (error: ApiError): Reply =>
  error.status === 404
    ? notFoundPage(error)
    : messagePage(error.status, errorTitles[error.status] ?? 'Something went wrong', error.detail, {
        headers: error.headers,
      });

export interface AdminAreaOptions {
  /**
   * The scrypt cost of the password hashes the pages make: OWASP's minimum (N=2^17, r=8, p=1)
   * unless said. A test suite that signs in hundreds of times may lower it; a server must not.
   */
  passwordCost?: ScryptCost;
}

/**
 * The admin web pages as an extension of the tracker: the landing page, sign-in, and each
 * workspace's API tokens, members and webhooks, server-rendered; errors outside the API shown as
 * pages. `serve` mounts it: `createTracker({ storage, extensions: [adminArea()] })`.
 */
export function adminArea(options: AdminAreaOptions = {}): TrackerExtension {
  const passwords = adminPasswords(options.passwordCost ?? owaspScryptCost);
  return {
    name: 'admin',
    mount({ clock, ids, services }): MountedExtension {
      // Lives as long as the tracker: counts failed sign-ins across requests.
      const throttle: SignInThrottle = signInThrottle(clock);
      return {
        openRoutes: { 'GET /': landingPage },
        match: (method, path) => matchPage({ ids, services, throttle, passwords }, method, path),
        errorReply: (path, error) => (showsPages(path) ? errorPage(error) : null),
      };
    },
  };
}
