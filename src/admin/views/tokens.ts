import type { ApiToken, Reply, TokenScope, Workspace } from '../../core/extension-kit.js';
import { type Html, html } from '../html.js';
import { type SignedIn, sectionPath, settingsPage } from '../layout.js';
import { alert, badge, confirmForm, csrfField, notice, secretOnce, when } from './common.js';

export { when } from './common.js';

/** A token as the list shows it: never more than its last four characters. */
export interface TokenRow {
  token: ApiToken;
  ownerEmail: string | null;
}

export interface TokensView {
  workspace: Workspace;
  rows: TokenRow[];
  signedIn: SignedIn;
  /** The time of the request, to tell expired tokens. */
  now: string;
  status?: number;
  /** A problem with the submitted "New token" form. */
  error?: string;
  /** What just happened (a revocation, a creation). */
  notice?: Html | string;
  /** A token created by the POST this page answers the redirect of: shown in full, this once. */
  created?: { token: ApiToken; plain: string };
  /** The values to put back in the form after an error. */
  form?: { name: string; scope: string; expiresInDays: string };
}

export const scopeLabels: Record<TokenScope, string> = {
  read: 'read (GET only)',
  read_write: 'read_write (read and change data)',
};

export const tokensPath = (workspace: Workspace) => sectionPath(workspace, 'tokens');

function state(token: ApiToken, now: string) {
  if (token.revokedAt) return badge('revoked', 'off');
  if (token.expiresAt !== null && token.expiresAt <= now) return badge('expired', 'off');
  return badge('active', 'ok');
}

function row(view: TokensView, { token, ownerEmail }: TokenRow) {
  const live = !token.revokedAt && (token.expiresAt === null || token.expiresAt > view.now);
  const action = live
    ? html`<a class="button danger" href="${tokensPath(view.workspace)}/${token.id}/revoke"
        aria-label="Revoke token ${token.name}">Revoke…</a>`
    : html`<span class="muted">—</span>`;
  return html`
  <tr data-token-id="${token.id}">
    <td data-label="Name">${token.name}</td>
    <td data-label="State">${state(token, view.now)}</td>
    <td data-label="Scope"><code>${token.scope}</code></td>
    <td data-label="Owner">${ownerEmail ?? html`<span class="muted">removed user</span>`}</td>
    <td data-label="Token"><code>cn_…${token.lastFour}</code></td>
    <td data-label="Created">${when(token.createdAt)}</td>
    <td data-label="Last used">${when(token.lastUsedAt)}</td>
    <td data-label="Expires">${token.revokedAt ? html`revoked ${when(token.revokedAt)}` : when(token.expiresAt)}</td>
    <td data-label="Action">${action}</td>
  </tr>`;
}

const expiryLabel = (days: string) => (days === '' ? 'Never' : `In ${days} days`);

function newTokenForm(view: TokensView) {
  const scope = view.form?.scope ?? 'read';
  const expires = view.form?.expiresInDays ?? '30';
  return html`
<section aria-labelledby="new-token-heading" class="panel">
  <h2 id="new-token-heading">New token</h2>
  ${alert(view.error, 'new-token-error')}
  <form method="post" action="${tokensPath(view.workspace)}">
    ${csrfField(view.signedIn.csrfToken)}
    <label for="token-name">Name</label>
    <input type="text" id="token-name" name="name" required maxlength="100" value="${view.form?.name ?? ''}"
      ${view.error ? html`aria-describedby="new-token-error"` : null}>
    <fieldset>
      <legend>Scope</legend>
      ${(Object.keys(scopeLabels) as TokenScope[]).map(
        (value) => html`<div><input type="radio" id="scope-${value}" name="scope" value="${value}"
          ${value === scope ? html`checked` : null}><label for="scope-${value}">${scopeLabels[value]}</label></div>`,
      )}
    </fieldset>
    <label for="token-expiry">Expires</label>
    <select id="token-expiry" name="expiresInDays" aria-describedby="token-expiry-hint">
      ${['7', '30', '90', ''].map(
        (days) =>
          html`<option value="${days}"${days === expires ? html` selected` : null}>${expiryLabel(days)}</option>`,
      )}
    </select>
    <p class="hint" id="token-expiry-hint">After that the API answers 401 to it. Tokens that never expire are
    convenient but riskier.</p>
    <p><button type="submit">Create token</button></p>
  </form>
</section>`;
}

const createdPanel = (created: { token: ApiToken; plain: string }) => html`
<section class="panel" aria-labelledby="created-heading">
  <h2 id="created-heading">New token created</h2>
  <p class="notice" role="status">Token <strong>${created.token.name}</strong> (<code>${created.token.scope}</code>${
    created.token.expiresAt ? html`, expires ${when(created.token.expiresAt)}` : html`, never expires`
  }) was created. Copy it now: it is shown only this once and cannot be recovered.</p>
  ${secretOnce('Your new API token', 'new-token', created.plain)}
</section>`;

/** The workspace's tokens, the "New token" form and a Revoke link per live token. */
export function tokensPage(view: TokensView): Reply {
  const table = view.rows.length
    ? html`
<table aria-labelledby="tokens-heading">
  <thead><tr>
    <th scope="col">Name</th><th scope="col">State</th><th scope="col">Scope</th><th scope="col">Owner</th>
    <th scope="col">Token</th><th scope="col">Created</th><th scope="col">Last used</th>
    <th scope="col">Expires</th><th scope="col"><span class="muted">Action</span></th>
  </tr></thead>
  <tbody>${view.rows.map((r) => row(view, r))}</tbody>
</table>`
    : html`<p class="muted">This workspace has no API tokens yet.</p>`;
  const body = html`
${view.created ? createdPanel(view.created) : notice(view.notice)}
<p>Tokens authenticate requests to <a href="/docs">the API</a> as <code>Authorization: Bearer cn_…</code>.
A token acts with its owner's role in this workspace, limited by its scope.</p>
${newTokenForm(view)}
<h2 id="tokens-heading">Tokens of ${view.workspace.slug}</h2>
${table}`;
  return settingsPage(view, 'tokens', {
    title: `API tokens · ${view.workspace.slug}`,
    body,
    status: view.status ?? 200,
    ...(view.created ? { scripts: ['copy-token.js'] } : {}),
  });
}

/** "Revoke token X?": the confirmation step before the POST that revokes. */
export function revokeTokenPage(view: { workspace: Workspace; row: TokenRow; signedIn: SignedIn }): Reply {
  const { token, ownerEmail } = view.row;
  const body = confirmForm({
    action: `${tokensPath(view.workspace)}/${token.id}/revoke`,
    csrfToken: view.signedIn.csrfToken,
    question: html`Revoke the token <strong>${token.name}</strong> (<code>cn_…${token.lastFour}</code>, owner
      ${ownerEmail ?? 'a removed user'})? Every request made with it is refused from then on. This cannot be undone.`,
    button: 'Revoke token',
    cancelHref: tokensPath(view.workspace),
  });
  return settingsPage(view, 'tokens', {
    title: `Revoke token ${token.name}?`,
    body,
  });
}
