import type { TestServer } from '../http/harness.js';
import { hashTestPassword } from '../support/password-cost.js';

/** One response of a page request: redirects are not followed, so 303s can be checked. */
export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The Location header of a redirect, or null. */
  location: string | null;
  /** The raw Set-Cookie values of this response. */
  setCookies: string[];
}

/** The value of the first hidden `csrf` field on a page. */
export function csrfOf(page: PageResponse): string {
  const found = /name="csrf" value="([^"]+)"/.exec(page.text);
  if (!found?.[1]) throw new Error(`no CSRF field on the page (status ${page.status})`);
  return found[1];
}

/**
 * A browser stand-in for the admin pages: keeps cookies by hand (name=value, honouring
 * Max-Age=0 as a deletion), sends forms urlencoded and never follows redirects.
 */
export class FormClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    readonly extraHeaders: Record<string, string> = {},
  ) {}

  get(path: string): Promise<PageResponse> {
    return this.send('GET', path);
  }

  /** Posts the fields as `application/x-www-form-urlencoded`. */
  post(path: string, fields: Record<string, string>): Promise<PageResponse> {
    return this.send('POST', path, new URLSearchParams(fields).toString());
  }

  /** Opens the sign-in page and submits it; returns the answer to the POST. */
  async signIn(email: string, password: string, next?: string): Promise<PageResponse> {
    const form = await this.get(next ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in');
    return this.post('/sign-in', { csrf: csrfOf(form), email, password, ...(next ? { next } : {}) });
  }

  async send(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: {
        ...this.extraHeaders,
        ...(cookie ? { cookie } : {}),
        ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body } : {}),
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      if (attributes.some((a) => a.toLowerCase() === 'max-age=0')) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(at + 1));
    }
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      location: response.headers.get('location'),
      setCookies,
    } satisfies PageResponse;
  }
}

/** The password every test user signs in with. */
export const testPassword = 'correct horse battery staple';

/** Sets a password on an existing user, as `users set-password` does. */
export async function setPassword(server: TestServer, email: string, password = testPassword): Promise<void> {
  const passwordHash = await hashTestPassword(password);
  await server.storage.transaction(async (tx) => {
    const user = await tx.tenancy.getUserByEmail(email);
    if (!user) throw new Error(`no user ${email}`);
    await tx.tenancy.updateUser({ ...user, passwordHash });
  });
}

/** The path of the main workspace's token page. */
export const tokensPath = (server: TestServer, slug = server.ws.slug) => `/${slug}/admin/api-tokens`;

/** The plain token shown on a "New token created" page. */
export function shownToken(page: PageResponse): string {
  const found = /id="new-token"[^>]*value="(cn_[0-9A-Za-z_]+)"/.exec(page.text);
  if (!found?.[1]) throw new Error('no token on the page');
  return found[1];
}
