import type { Watch } from '../../core/port/index.js';

/** The watchers table's row as both SQL adapters read it, and the watch it is. */
export interface WatchRow {
  workspace_id: string;
  subject_id: string;
  user_id: string;
  subject_type: Watch['subjectType'];
  reason: Watch['reason'];
  since: string;
}

export const toWatch = (r: WatchRow): Watch => ({
  workspaceId: r.workspace_id,
  subjectType: r.subject_type,
  subjectId: r.subject_id,
  userId: r.user_id,
  reason: r.reason,
  since: r.since,
});

/** A watch's columns, in the order `watchValues` gives their values. */
export const watchColumns = 'workspace_id, subject_id, user_id, subject_type, reason, since';

/** What a watch's insert binds: its account, then `watchColumns`' values. */
export const watchValues = (accountId: string, w: Watch) => [
  accountId,
  w.workspaceId,
  w.subjectId,
  w.userId,
  w.subjectType,
  w.reason,
  w.since,
];
