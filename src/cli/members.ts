import type { MemberView } from '../core/families/members/operations.js';
import type { Workspace } from '../core/model.js';

/** A member as the `users` commands print it: the API's member, with its workspace named. */
export const memberView = (member: MemberView, workspace: Workspace) => ({
  ...member,
  workspaceId: workspace.id,
  workspaceSlug: workspace.slug,
});

export type CliMemberView = ReturnType<typeof memberView>;
