import type { Reply } from '../core/extension-kit.js';
import { acceptInvite, hashPassword, minPasswordLength, openInvite } from '../core/extension-kit.js';
import { html } from './html.js';
import { messagePage, pageReply, redirect } from './layout.js';
import type { AdminContext } from './request.js';

const gone = () =>
  messagePage(
    404,
    'Invite link not valid',
    'This invite link has been used, has expired, or was never made. Ask an admin of the workspace for a new one.',
  );

function passwordForm(token: string, email: string, error?: string): Reply {
  return pageReply({
    status: error ? 400 : 200,
    title: 'Set your password',
    body: html`<p>You were invited as <strong>${email}</strong>. Choose a password to sign in to the settings.</p>
${error ? html`<p class="alert" role="alert" id="invite-error">${error}</p>` : null}
<form method="post" action="/invite/${token}">
  <label for="password">Password <span class="muted">(at least ${minPasswordLength} characters)</span></label>
  <input type="password" id="password" name="password" required minlength="${minPasswordLength}" autocomplete="new-password"${
    error ? html` aria-describedby="invite-error"` : null
  }>
  <label for="confirm">Password again</label>
  <input type="password" id="confirm" name="confirm" required autocomplete="new-password">
  <p><button type="submit">Set password</button></p>
</form>`,
  });
}

/** GET /invite/{token}: the form that sets the invited member's password. */
export async function showInvite(ctx: AdminContext, token: string): Promise<Reply> {
  const user = await openInvite(ctx.tx, token, ctx.nowMs);
  return user ? passwordForm(token, user.email) : gone();
}

/**
 * POST /invite/{token}: sets the password and uses up the link, then sends the member to sign in.
 * The secret in the URL is the form's proof (a forged form cannot know it); scrypt runs after this
 * read transaction, and the write in a short one of its own.
 */
export async function submitInvite(ctx: AdminContext, token: string): Promise<Reply> {
  const user = await openInvite(ctx.tx, token, ctx.nowMs);
  if (!user) return gone();
  const password = ctx.req.form.get('password') ?? '';
  if (password.length < minPasswordLength) {
    return passwordForm(token, user.email, `The password needs at least ${minPasswordLength} characters.`);
  }
  if (password !== ctx.req.form.get('confirm')) {
    return passwordForm(token, user.email, 'The two passwords differ.');
  }
  return {
    status: 200,
    after: async ({ storage, nowMs }) => {
      const passwordHash = await hashPassword(password, ctx.passwords.cost);
      const accepted = await storage.transaction((tx) => acceptInvite(tx, token, passwordHash, nowMs()));
      return accepted ? redirect(`/sign-in?invited=${encodeURIComponent(accepted.email)}`) : gone();
    },
  };
}
