import type { Reply } from '../core/extension-kit.js';
import { hashPassword, needsRehash, randomSecret, verifyPassword } from '../core/extension-kit.js';
import { firstAdminWorkspace } from './admit.js';
import { setCookie } from './cookies.js';
import { messagePage, redirect } from './layout.js';
import { safeNextPath } from './next-path.js';
import type { AdminContext } from './request.js';
import { sameSecret } from './secrets.js';
import { currentSession, endSession, startSession } from './sessions.js';
import { signedInPage, signInPage } from './views/sign-in.js';

/**
 * The sign-in form's CSRF token. There is no session yet, so it is a double-submit value: a
 * random cookie that the form repeats in a hidden field. Another site can neither read the
 * cookie nor make the browser send it (SameSite=Strict), so it cannot sign a victim in to an
 * account of its choosing.
 */
const signInCookieName = 'ot_signin';
const signInCookieLifetimeSeconds = 60 * 60;
const secretPattern = /^[A-Za-z0-9_-]{43}$/;

/** The one message for every wrong email or password: it tells nobody which accounts exist. */
export const badCredentials = 'Incorrect email or password.';

function signInForm(ctx: AdminContext, options: { email?: string; error?: string; status?: number } = {}) {
  const sent = ctx.req.cookies.get(signInCookieName);
  const csrf = sent && secretPattern.test(sent) ? sent : randomSecret();
  return signInPage({
    csrf,
    next: safeNextPath(ctx.req.query.get('next') ?? ctx.req.form.get('next')),
    ...options,
    headers: {
      'Set-Cookie': setCookie(signInCookieName, csrf, {
        maxAgeSeconds: signInCookieLifetimeSeconds,
        secure: ctx.req.secure,
      }),
    },
  });
}

/** GET /sign-in: the form, or for a signed-in visitor their way on. */
export async function showSignIn(ctx: AdminContext): Promise<Reply> {
  const active = await currentSession(ctx.tx, ctx.req.cookies, ctx.nowMs);
  if (active) {
    const next = safeNextPath(ctx.req.query.get('next'));
    if (next) return redirect(next);
    const home = await firstAdminWorkspace(ctx, active.user.id);
    if (home) return redirect(`/${home.slug}/admin`);
    const memberships = await ctx.tx.tenancy.listUserMemberships(active.user.id);
    const workspaces = [];
    for (const membership of memberships.slice(0, 20)) {
      const workspace = await ctx.tx.tenancy.getWorkspace(membership.workspaceId);
      if (workspace) workspaces.push(workspace);
    }
    return signedInPage({ email: active.user.email, csrfToken: active.session.csrfToken }, workspaces);
  }
  return signInForm(ctx);
}

/** POST /sign-in: checks the password and starts a session. */
export async function submitSignIn(ctx: AdminContext): Promise<Reply> {
  const { form } = ctx.req;
  if (!sameSecret(form.get('csrf'), ctx.req.cookies.get(signInCookieName))) {
    return signInForm(ctx, {
      status: 403,
      error: 'This sign-in form had expired or did not come from this site. Please sign in again.',
    });
  }
  const email = (form.get('email') ?? '').trim();
  const password = form.get('password') ?? '';
  if (!email || !password) {
    return signInForm(ctx, { email, status: 400, error: 'Enter your email and your password.' });
  }
  const throttled = ctx.throttle.take(ctx.req.clientAddress, email);
  if (!throttled.allowed) {
    return messagePage(
      429,
      'Too many sign-in attempts',
      `Too many sign-in attempts. Wait ${throttled.retryAfterSeconds} seconds and try again.`,
      { headers: { 'Retry-After': String(throttled.retryAfterSeconds) } },
    );
  }
  const user = await ctx.tx.tenancy.getUserByEmail(email);
  const stored = user?.passwordHash ?? null;
  const failed = signInForm(ctx, { email, status: 400, error: badCredentials });
  // scrypt takes a few hundred ms: it runs after this transaction, never holding the database.
  return {
    status: 303,
    after: async ({ storage, nowMs }) => {
      // Always run scrypt, so an unknown email costs as much time as a wrong password.
      const matches = await verifyPassword(password, stored ?? (await ctx.passwords.dummyHash()));
      if (!user || stored === null || !matches) return failed;
      const upgraded = needsRehash(stored, ctx.passwords.cost)
        ? await hashPassword(password, ctx.passwords.cost)
        : null;
      const started = await storage.transaction(async (tx) => {
        const current = await tx.tenancy.getUser(user.id);
        // Changed meanwhile (a new password set, the user gone): this sign-in no longer counts.
        if (!current || current.passwordHash !== stored) return null;
        const now = nowMs();
        await tx.tenancy.updateUser({
          ...current,
          passwordHash: upgraded ?? current.passwordHash,
          lastSignInAt: new Date(now).toISOString(),
        });
        await tx.sessions.purge(new Date(now).toISOString());
        const session = await startSession(tx, user.id, now, ctx.req.secure);
        // Without a target, the first workspace the user administers: its settings home.
        const home = await firstAdminWorkspace({ ...ctx, tx }, user.id);
        return { ...session, home };
      });
      if (!started) return failed;
      const target =
        safeNextPath(form.get('next')) ?? (started.home ? `/${started.home.slug}/admin` : '/sign-in');
      return redirect(target, { 'Set-Cookie': started.setCookie });
    },
  };
}

/** POST /sign-out: ends the session (the form carries its CSRF token). */
export async function submitSignOut(ctx: AdminContext): Promise<Reply> {
  const active = await currentSession(ctx.tx, ctx.req.cookies, ctx.nowMs);
  if (!active) return redirect('/sign-in');
  if (!sameSecret(ctx.req.form.get('csrf'), active.session.csrfToken)) {
    return messagePage(
      403,
      'Form expired',
      'This form was not sent from this site, or it expired. Reload the page.',
      {
        signedIn: { email: active.user.email, csrfToken: active.session.csrfToken },
      },
    );
  }
  return redirect('/sign-in', { 'Set-Cookie': await endSession(ctx.tx, active.session, ctx.req.secure) });
}
