import { z } from 'zod';
import { roles } from '../../model.js';
import { pageQuery } from '../../pipeline/pagination.js';
import { idOf, int32, pageOf, serviceOwnedFields, timestampOut, withoutReadOnly } from '../shared/schema.js';

/** An email address as a browser's `<input type="email">` takes it (so `admin@localhost` is one). */
export const memberEmail = z.email({ pattern: z.regexes.html5Email }).max(254);

const role = z.enum(roles);

/** Fields a client may send back from a member it read but never set. */
const memberReadOnly = [...serviceOwnedFields, 'email', 'lastActiveAt', 'tokenCount'];

export const memberCreateSchema = withoutReadOnly(
  serviceOwnedFields,
  z.strictObject({ email: memberEmail, role: role.default('member') }),
);
export type MemberCreate = z.output<typeof memberCreateSchema>;

export const memberPatchSchema = withoutReadOnly(memberReadOnly, z.strictObject({ role: role.optional() }));
export type MemberPatch = z.output<typeof memberPatchSchema>;

export const memberListQuerySchema = z.strictObject({ ...pageQuery, role: role.optional() });
export type MemberListQuery = z.output<typeof memberListQuerySchema>;

/** A member as the API answers it: the membership, its user's email and its activity. */
export const memberSchema = z.strictObject({
  id: idOf('usr').describe("The member's id: the id of its user"),
  userId: idOf('usr'),
  email: z.string(),
  role,
  createdAt: timestampOut.describe('When the user joined the workspace'),
  updatedAt: timestampOut,
  version: int32().min(1).describe('Increases with every change; the ETag is "<version>"'),
  lastActiveAt: timestampOut
    .nullable()
    .describe(
      "The latest use of one of the member's tokens in this workspace (a sign-in, which is the user's and not the workspace's, does not count)",
    ),
  tokenCount: z.number().int().min(0).describe('Live (not revoked, not expired) tokens the member has here'),
});
export const memberPageSchema = pageOf(memberSchema);
