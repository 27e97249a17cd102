import { z } from 'zod';
import { roles } from '../../model.js';
import type { DumpRows } from '../../port/index.js';
import type { TransferFamily } from '../../transfer/family.js';
import { idOf, timestampOut } from '../shared/schema.js';
import { memberEvents } from './events.js';
import { memberEmail } from './schema.js';

/** A member as the file holds it: the membership and its user's email (never a password). */
export const memberRecordSchema = z.strictObject({
  userId: idOf('usr'),
  email: memberEmail,
  role: z.enum(roles),
  createdAt: timestampOut,
  updatedAt: timestampOut,
  version: z.number().int().min(1),
});

/**
 * Members, by email: the importer finds the user by email, or creates it (without a password)
 * under the exported id; references to the exported id then name that user.
 */
export const memberTransfer: TransferFamily = {
  family: 'members',
  table: 'memberships',
  async toRecord(row, scope) {
    const membership = row as DumpRows['memberships'];
    if (membership.workspaceId !== scope.workspaceId) return null;
    const user = await scope.tx.tenancy.getUser(membership.userId);
    if (!user) return null;
    const { userId, role, createdAt, updatedAt, version } = membership;
    return { userId, email: user.email, role, createdAt, updatedAt, version };
  },
  schema: memberRecordSchema,
  references: [],
  async exists(ctx, record) {
    const user = await ctx.tx.tenancy.getUserByEmail(String(record.email));
    return user !== null && (await ctx.tx.tenancy.getMembership(ctx.tenant.workspaceId, user.id)) !== null;
  },
  async has(ctx, id) {
    return (await ctx.tx.tenancy.getMembership(ctx.tenant.workspaceId, id)) !== null;
  },
  async create(ctx, record) {
    const member = memberRecordSchema.parse(record);
    let user = await ctx.tx.tenancy.getUserByEmail(member.email);
    if (!user) {
      user = {
        id: member.userId,
        email: member.email,
        passwordHash: null,
        createdAt: member.createdAt,
        lastSignInAt: null,
      };
      await ctx.tx.tenancy.insertUser(user);
    }
    const { role, createdAt, updatedAt, version } = member;
    await ctx.tx.tenancy.putMembership({
      workspaceId: ctx.tenant.workspaceId,
      userId: user.id,
      role,
      createdAt,
      updatedAt,
      version,
    });
    const view = {
      id: user.id,
      userId: user.id,
      email: user.email,
      role,
      createdAt,
      updatedAt,
      version,
      lastActiveAt: null,
      tokenCount: 0,
    };
    await ctx.emit({
      type: memberEvents.created,
      resource: { type: 'member', id: user.id },
      data: { object: view },
    });
  },
};
