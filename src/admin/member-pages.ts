import type { Reply, Services } from '../core/extension-kit.js';
import {
  ApiError,
  createMember,
  getMember,
  inviteMember,
  listMembers,
  type MemberInvite,
  maxPageSize,
  memberCreateSchema,
  memberPatchSchema,
  removeMember,
  updateMember,
} from '../core/extension-kit.js';
import { type Admin, adminOperations, admitAdmin, admitToItem, isReply } from './admit.js';
import { messagePage, redirect } from './layout.js';
import type { AdminContext } from './request.js';
import { type MembersView, membersPage, membersPath, removeMemberPage } from './views/members.js';

type PageExtras = Pick<MembersView, 'status' | 'notice' | 'error' | 'form' | 'invite' | 'inviteError'>;

async function renderMembers(ctx: AdminContext, admin: Admin, services: Services, extras: PageExtras) {
  const ops = adminOperations(ctx, admin, services);
  const cursor = ctx.req.method === 'GET' ? (ctx.req.query.get('cursor') ?? undefined) : undefined;
  let page: Awaited<ReturnType<typeof listMembers>>;
  try {
    page = await listMembers(ops, { limit: maxPageSize, ...(cursor ? { cursor } : {}) });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    page = await listMembers(ops, { limit: maxPageSize });
  }
  const memberships = await ctx.tx.tenancy.listMemberships(admin.workspace.id);
  return membersPage({
    adminCount: memberships.filter((m) => m.role === 'admin').length,
    workspace: admin.workspace,
    members: page.data,
    total: page.total,
    nextCursor: page.nextCursor,
    signedIn: admin.signedIn,
    userId: admin.userId,
    ...extras,
  });
}

/** The note a redirect back to the list carries, by query parameter. */
const notes: Record<string, (email: string) => string> = {
  added: (email) => `${email} was added.`,
  updated: (email) => `${email}'s role was changed.`,
  removed: (email) => `${email} was removed; their tokens here are revoked.`,
};

/** GET /{slug}/admin/members */
export async function showMembers(ctx: AdminContext, slug: string, services: Services): Promise<Reply> {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const entry = Object.entries(notes).find(([param]) => ctx.req.query.has(param));
  const email = entry ? (ctx.req.query.get(entry[0]) ?? '') : '';
  return renderMembers(ctx, admin, services, entry && email ? { notice: entry[1](email) } : {});
}

const messageOf = (error: ApiError) =>
  error.code === 'validation_failed' ? 'Enter a valid email address and choose a role.' : error.detail;

/** POST /{slug}/admin/members: adds a member by email. */
export async function addMemberForm(ctx: AdminContext, slug: string, services: Services): Promise<Reply> {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const form = { email: (ctx.req.form.get('email') ?? '').trim(), role: ctx.req.form.get('role') ?? '' };
  const parsed = memberCreateSchema.safeParse(form);
  if (!parsed.success) {
    return renderMembers(ctx, admin, services, {
      status: 400,
      error: 'Enter a valid email address and choose a role.',
      form,
    });
  }
  try {
    const member = await createMember(adminOperations(ctx, admin, services), parsed.data);
    return redirect(`${membersPath(admin.workspace)}?added=${encodeURIComponent(member.email)}`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return renderMembers(ctx, admin, services, { status: error.status, error: messageOf(error), form });
  }
}

async function memberOr404(ctx: AdminContext, admin: Admin, services: Services, id: string) {
  try {
    return await getMember(adminOperations(ctx, admin, services), id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

const memberNotFound = (admin: Admin) =>
  messagePage(404, 'Member not found', 'This workspace has no member with that id.', {
    signedIn: admin.signedIn,
  });

/** A page about one member, at a path naming the workspace's slug and the member's id. */
type MemberPage = (ctx: AdminContext, slug: string, id: string, services: Services) => Promise<Reply>;

/** The admin and the member a page is about, or the reply that ends the request. */
const admitToMember = (ctx: AdminContext, slug: string, id: string, services: Services) =>
  admitToItem(ctx, slug, (admin) => memberOr404(ctx, admin, services, id), memberNotFound);

/** POST /{slug}/admin/members/{id}/role: changes the role; the member's tokens follow at once. */
export const changeRoleForm: MemberPage = async (ctx, slug, id, services) => {
  const admitted = await admitToMember(ctx, slug, id, services);
  if (isReply(admitted)) return admitted;
  const { admin, item: member } = admitted;
  const parsed = memberPatchSchema.safeParse({ role: ctx.req.form.get('role') ?? '' });
  if (!parsed.success) {
    return renderMembers(ctx, admin, services, {
      status: 400,
      error: 'Choose the role admin, member or viewer.',
    });
  }
  try {
    await updateMember(adminOperations(ctx, admin, services), id, parsed.data);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return renderMembers(ctx, admin, services, { status: error.status, error: messageOf(error) });
  }
  // Demoting oneself ends one's access to these pages: the list would answer 403.
  if (id === admin.userId && parsed.data.role !== 'admin') return redirect('/sign-in');
  return redirect(`${membersPath(admin.workspace)}?updated=${encodeURIComponent(member.email)}`);
};

/** GET /{slug}/admin/members/{id}/remove: asks for confirmation. */
export const confirmRemoveMember: MemberPage = async (ctx, slug, id, services) => {
  const admitted = await admitToMember(ctx, slug, id, services);
  if (isReply(admitted)) return admitted;
  const { admin, item: member } = admitted;
  return removeMemberPage({ workspace: admin.workspace, member, signedIn: admin.signedIn });
};

/** POST /{slug}/admin/members/{id}/remove: removes the member and revokes their tokens here. */
export const removeMemberForm: MemberPage = async (ctx, slug, id, services) => {
  const admitted = await admitToMember(ctx, slug, id, services);
  if (isReply(admitted)) return admitted;
  const { admin, item: member } = admitted;
  try {
    await removeMember(adminOperations(ctx, admin, services), id);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return removeMemberPage({
      workspace: admin.workspace,
      member,
      signedIn: admin.signedIn,
      status: error.status,
      error: messageOf(error),
    });
  }
  if (id === admin.userId) return redirect('/sign-in');
  return redirect(`${membersPath(admin.workspace)}?removed=${encodeURIComponent(member.email)}`);
};

/**
 * POST /{slug}/admin/members/invite: adds the email (unless a member already) and shows a one-time
 * link with which they set a password: the operation of `POST /api/v1/members/invites`, so the
 * change signals and webhooks as the API's does.
 */
export async function inviteMemberForm(ctx: AdminContext, slug: string, services: Services): Promise<Reply> {
  const admin = await admitAdmin(ctx, slug);
  if (isReply(admin)) return admin;
  const parsed = memberCreateSchema.safeParse({
    email: (ctx.req.form.get('email') ?? '').trim(),
    role: ctx.req.form.get('role') ?? '',
  });
  if (!parsed.success) {
    return renderMembers(ctx, admin, services, {
      status: 400,
      inviteError: 'Enter a valid email address and choose a role.',
    });
  }
  const { email } = parsed.data;
  let invite: MemberInvite;
  try {
    invite = await inviteMember(adminOperations(ctx, admin, services), parsed.data);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'has_password') throw error;
    return renderMembers(ctx, admin, services, {
      status: 409,
      inviteError: `${email} already has a password: add them as a member, and they sign in with it.`,
    });
  }
  return renderMembers(ctx, admin, services, {
    status: 201,
    invite: { email: invite.email, path: invite.path, expiresAt: invite.expiresAt },
  });
}
