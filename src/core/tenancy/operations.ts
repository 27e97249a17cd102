import { ApiError } from '../errors.js';
import type { ApiToken, Membership, Role, TokenScope, User, Workspace } from '../model.js';
import { type StorageTx, UniqueViolation } from '../port/index.js';
import { type Ids, isoTime } from '../runtime.js';
import { newTokenText } from './token-format.js';
import { hashToken } from './token-hash.js';

/**
 * Operator operations on accounts, workspaces, users and tokens: what the CLI and the admin
 * pages do. They take a transaction and trust their caller, who has already decided that the
 * operator (or a signed-in admin) may act.
 */

export interface TenancyDeps {
  tx: StorageTx;
  ids: Ids;
  now: number;
}

export const workspaceSlugPattern = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

const conflict = (detail: string) => new ApiError(409, 'resource_in_use', detail);

const dayMs = 24 * 60 * 60 * 1000;

/** The token lifetimes offered by the admin page and the CLI, in days. */
export const tokenLifetimesInDays = [7, 30, 90] as const;

/** An issued token: the plain value exists only in this object, shown once. */
export interface IssuedToken {
  token: ApiToken;
  plain: string;
}

export async function issueToken(
  { tx, ids, now }: TenancyDeps,
  input: {
    workspaceId: string;
    userId: string;
    name: string;
    scope: TokenScope;
    /** Days until the API refuses the token; absent or null for a token that never expires. */
    expiresInDays?: number | null;
    /** The workspace's account, when the caller knows it (else it is read). */
    accountId?: string;
  },
): Promise<IssuedToken> {
  const accountId = input.accountId ?? (await tx.tenancy.getWorkspace(input.workspaceId))?.accountId;
  if (accountId === undefined) throw new ApiError(404, 'not_found', `No workspace ${input.workspaceId}.`);
  const plain = newTokenText(accountId);
  const token: ApiToken = {
    id: ids.id('tok'),
    workspaceId: input.workspaceId,
    userId: input.userId,
    name: input.name,
    scope: input.scope,
    hash: hashToken(plain),
    lastFour: plain.slice(-4),
    createdAt: isoTime(now),
    lastUsedAt: null,
    revokedAt: null,
    expiresAt: input.expiresInDays ? isoTime(now + input.expiresInDays * dayMs) : null,
  };
  await tx.tokens.insert(token);
  return { token, plain };
}

/** Finds a user by email or creates one, then makes them a member of the workspace with the role. */
export async function addMember(
  { tx, ids, now }: TenancyDeps,
  input: { workspaceId: string; email: string; role: Role; passwordHash?: string | null },
): Promise<{ user: User; membership: Membership }> {
  const found = await tx.tenancy.getUserByEmail(input.email);
  let user: User;
  if (!found) {
    user = {
      id: ids.id('usr'),
      email: input.email,
      passwordHash: input.passwordHash ?? null,
      createdAt: isoTime(now),
      lastSignInAt: null,
    };
    await tx.tenancy.insertUser(user);
  } else if (input.passwordHash) {
    user = { ...found, passwordHash: input.passwordHash };
    await tx.tenancy.updateUser(user);
  } else {
    user = found;
  }
  const existing = await tx.tenancy.getMembership(input.workspaceId, user.id);
  const membership: Membership = {
    workspaceId: input.workspaceId,
    userId: user.id,
    role: input.role,
    createdAt: existing?.createdAt ?? isoTime(now),
    updatedAt: isoTime(now),
    version: (existing?.version ?? 0) + 1,
  };
  await tx.tenancy.putMembership(membership);
  return { user, membership };
}

export interface InitResult {
  accountId: string;
  workspaceId: string;
  workspaceSlug: string;
  userId: string;
  token: string;
}

/** Creates an account, its workspace, an admin and a read_write token for that admin. */
export async function initWorkspace(
  deps: TenancyDeps,
  input: { slug: string; adminEmail: string; accountName?: string; passwordHash?: string | null },
): Promise<InitResult> {
  const { tx, ids, now } = deps;
  if (!workspaceSlugPattern.test(input.slug)) {
    throw new ApiError(
      400,
      'validation_failed',
      `"${input.slug}" is not a valid workspace slug (a-z, 0-9, -).`,
    );
  }
  if (await tx.tenancy.getWorkspaceBySlug(input.slug)) {
    throw conflict(`Workspace "${input.slug}" already exists.`);
  }
  const accountId = ids.id('acct');
  await tx.tenancy.insertAccount({
    id: accountId,
    name: input.accountName ?? input.slug,
    createdAt: isoTime(now),
  });
  const workspace: Workspace = {
    id: ids.id('ws'),
    accountId,
    slug: input.slug,
    name: input.slug,
    createdAt: isoTime(now),
  };
  try {
    await tx.tenancy.insertWorkspace(workspace);
  } catch (error) {
    if (error instanceof UniqueViolation) throw conflict(`Workspace "${input.slug}" already exists.`);
    throw error;
  }
  const { user } = await addMember(deps, {
    workspaceId: workspace.id,
    email: input.adminEmail,
    role: 'admin',
    passwordHash: input.passwordHash ?? null,
  });
  const issued = await issueToken(deps, {
    workspaceId: workspace.id,
    userId: user.id,
    name: 'init',
    scope: 'read_write',
    accountId,
  });
  return {
    accountId,
    workspaceId: workspace.id,
    workspaceSlug: workspace.slug,
    userId: user.id,
    token: issued.plain,
  };
}

/** The workspace with this slug, or a 404 naming it. */
export async function workspaceBySlug(tx: StorageTx, slug: string): Promise<Workspace> {
  const workspace = await tx.tenancy.getWorkspaceBySlug(slug);
  if (!workspace) throw new ApiError(404, 'not_found', `No workspace "${slug}".`);
  return workspace;
}
