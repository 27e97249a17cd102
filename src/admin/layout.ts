import type { Reply, Workspace } from '../core/extension-kit.js';
import { assetBase } from './assets.js';
import { type Html, html } from './html.js';

/**
 * Headers every admin response carries. The pages load only their own stylesheet and script,
 * cannot be framed (clickjacking on the Revoke button), leak no URL to other sites, and are
 * never cached: they show tokens, and one of them shows a token in full.
 */
export const pageSecurityHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; " +
    "frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-store',
};

/** Who is signed in, for the header's sign-out button. */
export interface SignedIn {
  email: string;
  csrfToken: string;
}

/** The settings area's sections, linked from every page's header. */
export type Section = 'home' | 'tokens' | 'members' | 'webhooks';

const sections: readonly { section: Section; label: string; path: string }[] = [
  { section: 'home', label: 'Settings', path: '' },
  { section: 'tokens', label: 'API tokens', path: '/api-tokens' },
  { section: 'members', label: 'Members', path: '/members' },
  { section: 'webhooks', label: 'Webhooks', path: '/webhooks' },
];

/** The path of a section of a workspace's settings. */
export const sectionPath = (workspace: Workspace, section: Section): string =>
  `/${workspace.slug}/admin${sections.find((s) => s.section === section)?.path ?? ''}`;

/** Where the page sits in a workspace's settings: the header links to its sections. */
export interface PageNav {
  workspace: Workspace;
  current: Section;
}

export interface PageOptions {
  title: string;
  /** The workspace's settings navigation; absent on sign-in and error pages outside a workspace. */
  nav?: PageNav;
  body: Html;
  status?: number;
  signedIn?: SignedIn | null;
  /** Extra response headers (Set-Cookie, Retry-After…). */
  headers?: Record<string, string>;
  /** Scripts (served files under the asset base) the page needs. */
  scripts?: string[];
}

/**
 * A page of a workspace's settings, for its signed-in admin: the workspace's navigation, with
 * `current` marked.
 */
export const settingsPage = (
  view: { workspace: Workspace; signedIn: SignedIn },
  current: PageNav['current'],
  options: Omit<PageOptions, 'nav' | 'signedIn'>,
): Reply => pageReply({ ...options, signedIn: view.signedIn, nav: { workspace: view.workspace, current } });

/** The sign-out button, a form so that it carries the CSRF token and works without JavaScript. */
const signOutForm = (signedIn: SignedIn) => html`
  <form method="post" action="/sign-out" class="account">
    <input type="hidden" name="csrf" value="${signedIn.csrfToken}">
    <span class="muted">${signedIn.email}</span>
    <button type="submit" class="secondary">Sign out</button>
  </form>`;

const navLinks = (nav: PageNav) => html`
  <nav aria-label="Workspace settings" class="sections">
    <ul>${sections.map(
      ({ section, label }) =>
        html`<li><a href="${sectionPath(nav.workspace, section)}"${
          section === nav.current ? html` aria-current="page"` : null
        }>${label}</a></li>`,
    )}</ul>
  </nav>`;

/** A whole HTML page as a reply, with the security headers. */
export function pageReply(options: PageOptions): Reply {
  const document = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title} · outcome-tracker</title>
<link rel="stylesheet" href="${assetBase}/admin.css">
<link rel="icon" href="${assetBase}/icon.svg" type="image/svg+xml">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
  <div class="bar">
    <span class="brand">outcome-tracker${options.nav ? html` <span class="muted">/ ${options.nav.workspace.slug}</span>` : null}</span>
    ${options.signedIn ? signOutForm(options.signedIn) : null}
  </div>
  ${options.nav ? navLinks(options.nav) : null}
</header>
<main id="main" tabindex="-1">
<h1>${options.title}</h1>
${options.body}
</main>
${(options.scripts ?? []).map((name) => html`<script src="${assetBase}/${name}" defer></script>`)}
</body>
</html>
`;
  return {
    status: options.status ?? 200,
    headers: { ...pageSecurityHeaders, ...options.headers },
    text: { contentType: 'text/html; charset=utf-8', body: document.value },
  };
}

/** 303 See Other: after a form post, the browser GETs `location`. */
export function redirect(location: string, headers: Record<string, string> = {}): Reply {
  return { status: 303, headers: { ...pageSecurityHeaders, Location: location, ...headers } };
}

/** A short page that only says what went wrong. */
export function messagePage(
  status: number,
  title: string,
  message: Html | string,
  options: { signedIn?: SignedIn | null; headers?: Record<string, string> } = {},
): Reply {
  return pageReply({
    status,
    title,
    body: html`<p class="notice">${message}</p>`,
    ...options,
  });
}

/** The links a visitor who took a wrong turn may want: the landing page, sign-in and the docs. */
const wayBack = html`<ul class="links">
  <li><a href="/">Home</a></li>
  <li><a href="/sign-in">Sign in to the settings</a></li>
  <li><a href="/docs">API reference</a></li>
</ul>`;

/** 404 for a path outside the API (a mistyped admin URL, say): a page, not problem+json. */
export function notFoundPage(error: { detail: string; headers?: Record<string, string> }): Reply {
  return pageReply({
    status: 404,
    title: 'Page not found',
    body: html`<p class="notice">${error.detail}</p>${wayBack}`,
    ...(error.headers ? { headers: error.headers } : {}),
  });
}
