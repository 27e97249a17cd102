import type { ApiToken, TokenScope, Workspace } from '../../model.js';
import type { Reply } from '../../pipeline/reply.js';
import { html } from '../html.js';
import { pageReply, type SignedIn } from '../layout.js';

/** A token as the list shows it: never more than its last four characters. */
export interface TokenRow {
  token: ApiToken;
  ownerEmail: string | null;
}

export interface TokensView {
  workspace: Workspace;
  rows: TokenRow[];
  signedIn: SignedIn;
  status?: number;
  /** A problem with the submitted "New token" form. */
  error?: string;
  /** What just happened (a revocation). */
  notice?: string;
  /** The values to put back in the form after an error. */
  form?: { name: string; scope: string };
}

export const scopeLabels: Record<TokenScope, string> = {
  read: 'read (GET only)',
  read_write: 'read_write (read and change data)',
};

/** An RFC 3339 time as a short UTC date and time, in a <time> element. */
export const when = (iso: string | null) =>
  iso === null
    ? html`<span class="muted">never</span>`
    : html`<time datetime="${iso}">${shortTime(iso)}</time>`;

const shortTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

export const tokensPath = (workspace: Workspace) => `/${workspace.slug}/admin/api-tokens`;

function row(view: TokensView, { token, ownerEmail }: TokenRow) {
  const action = token.revokedAt
    ? html`<span class="muted">Revoked</span>`
    : html`<form method="post" action="${tokensPath(view.workspace)}/${token.id}/revoke">
        <input type="hidden" name="csrf" value="${view.signedIn.csrfToken}">
        <button type="submit" class="danger" aria-label="Revoke token ${token.name}">Revoke</button>
      </form>`;
  return html`
  <tr data-token-id="${token.id}">
    <td data-label="Name">${token.name}</td>
    <td data-label="Scope"><code>${token.scope}</code></td>
    <td data-label="Owner">${ownerEmail ?? html`<span class="muted">removed user</span>`}</td>
    <td data-label="Token"><code>cn_…${token.lastFour}</code></td>
    <td data-label="Created">${when(token.createdAt)}</td>
    <td data-label="Last used">${when(token.lastUsedAt)}</td>
    <td data-label="Revoked">${token.revokedAt ? when(token.revokedAt) : html`<span class="muted">no</span>`}</td>
    <td data-label="Action">${action}</td>
  </tr>`;
}

function newTokenForm(view: TokensView) {
  const scope = view.form?.scope ?? 'read';
  return html`
<section aria-labelledby="new-token-heading" class="panel">
  <h2 id="new-token-heading">New token</h2>
  ${view.error ? html`<p class="alert" role="alert" id="new-token-error">${view.error}</p>` : null}
  <form method="post" action="${tokensPath(view.workspace)}">
    <input type="hidden" name="csrf" value="${view.signedIn.csrfToken}">
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
    <p><button type="submit">Create token</button></p>
  </form>
</section>`;
}

/** The workspace's tokens, the "New token" form and a Revoke button per live token. */
export function tokensPage(view: TokensView): Reply {
  const table = view.rows.length
    ? html`
<table aria-labelledby="tokens-heading">
  <thead><tr>
    <th scope="col">Name</th><th scope="col">Scope</th><th scope="col">Owner</th><th scope="col">Token</th>
    <th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Revoked</th>
    <th scope="col"><span class="muted">Action</span></th>
  </tr></thead>
  <tbody>${view.rows.map((r) => row(view, r))}</tbody>
</table>`
    : html`<p class="muted">This workspace has no API tokens yet.</p>`;
  const body = html`
${view.notice ? html`<p class="notice" role="status">${view.notice}</p>` : null}
<p>Tokens authenticate requests to <code>/api/v1</code> as <code>Authorization: Bearer cn_…</code>.
A token acts with its owner's role in this workspace, limited by its scope.</p>
${newTokenForm(view)}
<h2 id="tokens-heading">Tokens of ${view.workspace.slug}</h2>
${table}`;
  return pageReply({
    title: `API tokens · ${view.workspace.slug}`,
    body,
    signedIn: view.signedIn,
    status: view.status ?? 200,
  });
}

/** The one page that shows a new token in full: the answer to the create POST, never stored or cached. */
export function tokenCreatedPage(view: {
  workspace: Workspace;
  token: ApiToken;
  plain: string;
  signedIn: SignedIn;
}): Reply {
  const body = html`
<p class="notice" role="status">Token <strong>${view.token.name}</strong> (<code>${view.token.scope}</code>) was
created. Copy it now: it is shown only this once and cannot be recovered.</p>
<div class="panel">
  <label for="new-token">Your new API token</label>
  <div class="token-value">
    <input type="text" id="new-token" name="new-token" readonly value="${view.plain}" autocomplete="off"
      spellcheck="false" aria-describedby="copy-status">
    <button type="button" hidden data-copy-target="new-token" data-copy-status="copy-status">Copy</button>
  </div>
  <p id="copy-status" class="muted" aria-live="polite"></p>
</div>
<p><a href="${tokensPath(view.workspace)}">Back to the tokens of ${view.workspace.slug}</a></p>`;
  return pageReply({
    title: 'New token created',
    body,
    signedIn: view.signedIn,
    status: 201,
    scripts: ['copy-token.js'],
  });
}
