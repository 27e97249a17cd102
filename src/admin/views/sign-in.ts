import type { Reply, Workspace } from '../../core/extension-kit.js';
import { html } from '../html.js';
import { pageReply, type SignedIn } from '../layout.js';
import { outcomesPath } from './outcomes.js';

export interface SignInView {
  /** The double-submit CSRF value, also in the sign-in cookie. */
  csrf: string;
  /** A checked same-site path to return to, or null. */
  next: string | null;
  email?: string;
  error?: string;
  status?: number;
  headers?: Record<string, string>;
}

/** The sign-in form. */
export function signInPage(view: SignInView): Reply {
  const body = html`
${view.error ? html`<p class="alert" role="alert" id="sign-in-error">${view.error}</p>` : null}
<form method="post" action="/sign-in" class="panel">
  <input type="hidden" name="csrf" value="${view.csrf}">
  ${view.next ? html`<input type="hidden" name="next" value="${view.next}">` : null}
  <label for="email">Email</label>
  <input type="email" id="email" name="email" autocomplete="username" required value="${view.email ?? ''}"
    ${view.error ? html`aria-describedby="sign-in-error"` : null}>
  <label for="password">Password</label>
  <input type="password" id="password" name="password" autocomplete="current-password" required>
  <p><button type="submit">Sign in</button></p>
</form>
<p class="muted">Passwords are set with <code>outcome-tracker users set-password</code>.</p>`;
  return pageReply({
    title: 'Sign in',
    body,
    status: view.status ?? 200,
    ...(view.headers ? { headers: view.headers } : {}),
  });
}

/** What /sign-in shows to someone already signed in who administers no workspace: their outcomes. */
export function signedInPage(signedIn: SignedIn, workspaces: readonly Pick<Workspace, 'slug'>[] = []): Reply {
  const body = html`
<p>You are signed in as <strong>${signedIn.email}</strong>.</p>
${
  workspaces.length > 0
    ? html`<ul class="links">${workspaces.map(
        (w) =>
          html`<li><a href="${outcomesPath(w)}">Outcomes of ${w.slug}</a>: progress, burn-up, time, blockers</li>`,
      )}</ul>`
    : html`<p>You are not a member of any workspace yet.</p>`
}
<p class="muted">You are not an admin of any workspace, so there are no settings for you here. A workspace's settings
are at <code>/&lt;workspace&gt;/admin</code>.</p>`;
  return pageReply({ title: 'Signed in', body, signedIn });
}
