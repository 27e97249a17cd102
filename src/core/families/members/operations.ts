import { ApiError, notFound } from '../../errors.js';
import type { ApiToken, Membership, Role, User } from '../../model.js';
import { preconditionHolds, versionConflict } from '../../pipeline/conditional.js';
import type { OperationContext } from '../../pipeline/context.js';
import { decodeCursor, type Page, toPage } from '../../pipeline/pagination.js';
import { VersionMismatch } from '../../port/index.js';
import { addMember } from '../../tenancy/operations.js';
import { withFields } from '../../with-fields.js';
import { memberEvents } from './events.js';
import type { MemberCreate, MemberListQuery, MemberPatch } from './schema.js';

/** A member as the API, the CLI and the admin pages show it. */
export interface MemberView {
  id: string;
  userId: string;
  email: string;
  role: Role;
  createdAt: string;
  updatedAt: string;
  version: number;
  lastActiveAt: string | null;
  tokenCount: number;
}

/** Whether a token still opens the API at `now`: neither revoked nor expired. */
export const tokenIsLive = (token: ApiToken, now: string): boolean =>
  token.revokedAt === null && (token.expiresAt === null || token.expiresAt > now);

const latest = (times: (string | null)[]): string | null =>
  times.reduce<string | null>((max, t) => (t !== null && (max === null || t > max) ? t : max), null);

/** Joins a membership with its user and tokens into the member resource. */
async function presentMember(ctx: OperationContext, membership: Membership): Promise<MemberView> {
  const user = await ctx.tx.tenancy.getUser(membership.userId);
  const tokens = await ctx.tx.tokens.listForUser(membership.workspaceId, membership.userId);
  return {
    id: membership.userId,
    userId: membership.userId,
    email: user?.email ?? '',
    role: membership.role,
    createdAt: membership.createdAt,
    updatedAt: membership.updatedAt,
    version: membership.version,
    // Tokens of this workspace only: a user's sign-in is not tied to a workspace, and one workspace
    // adding a user by email must not learn when they are active in another's.
    lastActiveAt: latest(tokens.map((t) => t.lastUsedAt)),
    tokenCount: tokens.filter((t) => tokenIsLive(t, ctx.now)).length,
  };
}

const resourceOf = (member: MemberView) => ({ type: 'member', id: member.id });

async function getMembershipOr404(ctx: OperationContext, id: string): Promise<Membership> {
  const membership = await ctx.tx.tenancy.getMembership(ctx.tenant.workspaceId, id);
  if (!membership) throw notFound('member');
  return membership;
}

async function getForWrite(ctx: OperationContext, id: string): Promise<Membership> {
  const membership = await getMembershipOr404(ctx, id);
  if (ctx.precondition && !preconditionHolds(ctx.precondition, membership.version)) {
    throw versionConflict(membership.version);
  }
  return membership;
}

/**
 * Refuses a change that would leave the workspace without an admin. It counts inside the
 * request's transaction, which the storage port makes serializable, so two admins demoting
 * each other at the same moment cannot both succeed.
 */
async function keepAnAdmin(ctx: OperationContext, leaving: Membership, doing: string): Promise<void> {
  if (leaving.role !== 'admin') return;
  const admins = await ctx.tx.tenancy.listMembers({
    workspaceId: ctx.tenant.workspaceId,
    role: 'admin',
    limit: 1,
  });
  if (admins.total <= 1) {
    throw new ApiError(
      409,
      'last_admin',
      `This is the workspace's last admin; it cannot be ${doing}. Make another member an admin first.`,
    );
  }
}

/** The id (the user id) of the workspace's member with this email, or a 404. */
export async function memberIdByEmail(ctx: OperationContext, email: string): Promise<string> {
  const user: User | null = await ctx.tx.tenancy.getUserByEmail(email);
  const membership = user && (await ctx.tx.tenancy.getMembership(ctx.tenant.workspaceId, user.id));
  if (!membership) throw new ApiError(404, 'not_found', `${email} is not a member of this workspace.`);
  return membership.userId;
}

export async function listMembers(ctx: OperationContext, query: MemberListQuery): Promise<Page<MemberView>> {
  const filters = { name: 'members', role: query.role };
  const result = await ctx.tx.tenancy.listMembers({
    workspaceId: ctx.tenant.workspaceId,
    limit: query.limit + 1,
    ...(query.role ? { role: query.role } : {}),
    ...(query.cursor !== undefined ? { after: decodeCursor(query.cursor, filters) } : {}),
  });
  const page = toPage(
    result.rows.map((m) => withFields(m, { id: m.userId })),
    result.total,
    query.limit,
    filters,
    (m) => m,
  );
  const data: MemberView[] = [];
  for (const membership of page.data) data.push(await presentMember(ctx, membership));
  return { ...page, data };
}

export async function getMember(ctx: OperationContext, id: string): Promise<MemberView> {
  return presentMember(ctx, await getMembershipOr404(ctx, id));
}

/** Adds the user with this email (created without a password if new) to the workspace. */
export async function createMember(ctx: OperationContext, input: MemberCreate): Promise<MemberView> {
  const existing = await ctx.tx.tenancy.getUserByEmail(input.email);
  const membership = existing && (await ctx.tx.tenancy.getMembership(ctx.tenant.workspaceId, existing.id));
  if (membership) {
    throw new ApiError(409, 'already_member', `${input.email} is already a member of this workspace.`, {
      memberId: membership.userId,
    });
  }
  const added = await addMember(
    { tx: ctx.tx, ids: ctx.ids, now: Date.parse(ctx.now) },
    { workspaceId: ctx.tenant.workspaceId, email: input.email, role: input.role },
  );
  const member = await presentMember(ctx, added.membership);
  await ctx.emit({ type: memberEvents.created, resource: resourceOf(member), data: { object: member } });
  return member;
}

/** Changes a member's role; their tokens act with the new role from the next request on. */
export async function updateMember(
  ctx: OperationContext,
  id: string,
  patch: MemberPatch,
): Promise<MemberView> {
  const current = await getForWrite(ctx, id);
  if (patch.role === undefined || patch.role === current.role) return presentMember(ctx, current);
  if (patch.role !== 'admin') await keepAnAdmin(ctx, current, 'demoted');
  const next: Membership = { ...current, role: patch.role, version: current.version + 1, updatedAt: ctx.now };
  try {
    await ctx.tx.tenancy.updateMembership(next, current.version);
  } catch (error) {
    if (error instanceof VersionMismatch) {
      throw error.current === null ? notFound('member') : versionConflict(error.current);
    }
    throw error;
  }
  const member = await presentMember(ctx, next);
  await ctx.emit({
    type: memberEvents.updated,
    resource: resourceOf(member),
    data: { object: member, previous: { role: current.role } },
  });
  return member;
}

/**
 * Removes a member from the workspace and revokes their tokens here, so that their tokens
 * answer 401 from the next request on, and stay dead should the user be added again.
 */
export async function removeMember(ctx: OperationContext, id: string): Promise<void> {
  const current = await getForWrite(ctx, id);
  await keepAnAdmin(ctx, current, 'removed');
  const member = await presentMember(ctx, current);
  await ctx.tx.tokens.revokeForUser(ctx.tenant.workspaceId, current.userId, ctx.now);
  await ctx.tx.tenancy.removeMembership(ctx.tenant.workspaceId, current.userId);
  await ctx.emit({ type: memberEvents.deleted, resource: resourceOf(member), data: { object: member } });
}
