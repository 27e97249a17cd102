import type { MemberView, Reply } from '../../core/extension-kit.js';
import { type Role, roles, type Workspace } from '../../core/extension-kit.js';
import { type Html, html } from '../html.js';
import { type SignedIn, sectionPath, settingsPage } from '../layout.js';
import { alert, confirmForm, csrfField, notice, when } from './common.js';

export const membersPath = (workspace: Workspace) => sectionPath(workspace, 'members');

export const roleLabels: Record<Role, string> = {
  admin: 'Admin: everything, settings included',
  member: 'Member: reads and changes data',
  viewer: 'Viewer: reads only',
};

export interface MembersView {
  workspace: Workspace;
  members: MemberView[];
  total: number;
  nextCursor: string | null;
  signedIn: SignedIn;
  /** The signed-in admin, who is marked "you" in the list. */
  userId: string;
  /** How many admins the workspace has: the last one is offered no removal. */
  adminCount: number;
  status?: number;
  notice?: string;
  error?: string;
  form?: { email: string; role: string };
  /** An invite just made: its link is shown this once (only its hash is stored). */
  invite?: { email: string; path: string; expiresAt: string };
  inviteError?: string;
}

const roleSelect = (id: string, selected: string, describedBy?: string) => html`
  <select id="${id}" name="role"${describedBy ? html` aria-describedby="${describedBy}"` : null}>
    ${roles.map((role) => html`<option value="${role}"${role === selected ? html` selected` : null}>${role}</option>`)}
  </select>`;

function row(view: MembersView, member: MemberView) {
  const base = `${membersPath(view.workspace)}/${member.id}`;
  return html`
  <tr data-member-id="${member.id}">
    <td data-label="Email" class="email">${member.email}${member.id === view.userId ? html` <span class="muted">(you)</span>` : null}</td>
    <td data-label="Role">
      <form method="post" action="${base}/role" class="inline">
        ${csrfField(view.signedIn.csrfToken)}
        <label for="role-${member.id}" class="visually-hidden">Role of ${member.email}</label>
        ${roleSelect(`role-${member.id}`, member.role)}
        <button type="submit" class="secondary" aria-label="Save role of ${member.email}">Save</button>
      </form>
    </td>
    <td data-label="Tokens">${member.tokenCount}</td>
    <td data-label="Last active">${when(member.lastActiveAt)}</td>
    <td data-label="Joined">${when(member.createdAt)}</td>
    <td data-label="Action">${
      // The last admin cannot be removed (the workspace would have no one to run it): no button to refuse.
      member.role === 'admin' && view.adminCount <= 1
        ? html`<span class="muted">Last admin</span>`
        : html`<a class="button danger" href="${base}/remove" aria-label="Remove ${member.email}">Remove…</a>`
    }</td>
  </tr>`;
}

function addForm(view: MembersView) {
  return html`
<section aria-labelledby="add-member-heading" class="panel">
  <h2 id="add-member-heading">Add a member</h2>
  ${alert(view.error, 'member-error')}
  <form method="post" action="${membersPath(view.workspace)}">
    ${csrfField(view.signedIn.csrfToken)}
    <label for="member-email">Email</label>
    <input type="email" id="member-email" name="email" required maxlength="254" value="${view.form?.email ?? ''}"
      autocomplete="off"${view.error ? html` aria-describedby="member-error"` : null}>
    <label for="member-role">Role</label>
    ${roleSelect('member-role', view.form?.role ?? 'member', 'member-role-hint')}
    <p class="hint" id="member-role-hint">${roles.map((r) => roleLabels[r]).join('. ')}.</p>
    <p class="hint">Someone without an account here gets one without a password: invite them with the form above instead,
    or an operator sets it with <code>outcome-tracker users set-password</code>.</p>
    <p><button type="submit">Add member</button></p>
  </form>
</section>`;
}

/** The link of an invite just made, shown once, with its expiry. */
function inviteLink(invite: NonNullable<MembersView['invite']>) {
  return html`
<section aria-labelledby="invite-link-heading" class="panel">
  <h2 id="invite-link-heading">Invite link for ${invite.email}</h2>
  <p>Send this link to ${invite.email} yourself: no email is sent. It lets them set a password once, until
  ${when(invite.expiresAt)}; it is shown only now.</p>
  <p><a href="${invite.path}" id="invite-link" class="invite-link">${invite.path}</a></p>
</section>`;
}

function inviteForm(view: MembersView) {
  return html`
<section aria-labelledby="invite-heading" class="panel">
  <h2 id="invite-heading">Invite someone</h2>
  ${alert(view.inviteError, 'invite-error')}
  <form method="post" action="${membersPath(view.workspace)}/invite">
    ${csrfField(view.signedIn.csrfToken)}
    <label for="invite-email">Address to invite</label>
    <input type="email" id="invite-email" name="email" required maxlength="254" autocomplete="off"${
      view.inviteError ? html` aria-describedby="invite-error"` : null
    }>
    <label for="invite-role">Their role</label>
    ${roleSelect('invite-role', 'member')}
    <p class="hint">Adds them (unless they are a member already) and makes a one-time link, valid for 7 days,
    with which they set their password.</p>
    <p><button type="submit">Make invite link</button></p>
  </form>
</section>`;
}

/** The workspace's members: role changes in place, removal behind a confirmation, and an add form. */
export function membersPage(view: MembersView): Reply {
  const more = view.nextCursor
    ? html`<p><a href="${membersPath(view.workspace)}?cursor=${encodeURIComponent(view.nextCursor)}">Next page</a></p>`
    : null;
  const body = html`
${notice(view.notice)}
${view.invite ? inviteLink(view.invite) : null}
<p>A member's API tokens act with the member's role: a change applies to their next request, and removing
someone revokes their tokens here at once.</p>
<h2 id="members-heading">Members of ${view.workspace.slug} <span class="muted">(${view.total})</span></h2>
<table aria-labelledby="members-heading">
  <thead><tr>
    <th scope="col">Email</th><th scope="col">Role</th><th scope="col">Tokens</th><th scope="col">Last active</th>
    <th scope="col">Joined</th><th scope="col"><span class="muted">Action</span></th>
  </tr></thead>
  <tbody>${view.members.map((m) => row(view, m))}</tbody>
</table>
${more}
${inviteForm(view)}
${addForm(view)}`;
  return settingsPage(view, 'members', {
    title: `Members · ${view.workspace.slug}`,
    body,
    status: view.status ?? 200,
  });
}

/** "Remove X?": the confirmation step before the POST that removes. */
export function removeMemberPage(view: {
  workspace: Workspace;
  member: MemberView;
  signedIn: SignedIn;
  error?: string;
  status?: number;
}): Reply {
  const { member } = view;
  const question: Html = html`Remove <strong>${member.email}</strong> (${member.role}) from
    <strong>${view.workspace.slug}</strong>? Their ${member.tokenCount} API token${member.tokenCount === 1 ? '' : 's'}
    here ${member.tokenCount === 1 ? 'is' : 'are'} revoked at once. Their account stays, and they can be added again.`;
  const body = html`
${alert(view.error, 'remove-error')}
${confirmForm({
  action: `${membersPath(view.workspace)}/${member.id}/remove`,
  csrfToken: view.signedIn.csrfToken,
  question,
  button: 'Remove member',
  cancelHref: membersPath(view.workspace),
})}`;
  return settingsPage(view, 'members', {
    title: `Remove ${member.email}?`,
    body,
    status: view.status ?? 200,
  });
}
