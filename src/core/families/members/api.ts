/** The members family as typed operations, for embedding without HTTP. */

export { inviteMember as invite, type MemberInvite } from './invite.js';
export {
  createMember as create,
  getMember as get,
  listMembers as list,
  type MemberView,
  memberIdByEmail as idByEmail,
  removeMember as remove,
  updateMember as update,
} from './operations.js';
export type { MemberCreate, MemberListQuery, MemberPatch } from './schema.js';
