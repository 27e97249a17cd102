/** A watcher, as the watchers routes answer it. */
const watcher = {
  userId: 'usr_FVGq5J0otcivYAMuLNGs',
  reason: 'manual',
  since: '2026-11-22T10:40:40.000Z',
};

/** A comment by someone else on a watched issue. */
const notification = {
  id: '6f2c1d8e-4b7a-4c1e-9a55-3f0b2d9e7c41',
  sequence: 42,
  type: 'comment.created',
  kind: 'commented',
  occurredAt: '2026-11-22T10:41:41.000Z',
  actor: { userId: 'usr_Q2w8Rt5yUi9oPa3sDf6G' },
  item: {
    type: 'issue',
    id: 'iss_CuUE3PZrO8ENHJLaEhNH',
    key: 'APO-1',
    title: 'Checkout button does nothing',
  },
  change: null,
  commentId: 'cmt_ZpL0s3kQv8aRuT2mYw4N',
  read: false,
};

/** Requests and answers of the watchers and notifications routes, shown in the API reference. */
export const notificationExamples = {
  watcher,
  watchers: { data: [watcher], nextCursor: null, total: 1 },
  page: {
    data: [
      notification,
      {
        ...notification,
        id: '0b7e6a2f-93c4-4d58-8e21-6a4f0c3b9d17',
        sequence: 40,
        type: 'issue.status_changed',
        kind: 'transitioned',
        occurredAt: '2026-11-22T10:40:50.000Z',
        change: { field: 'status', from: 'open', to: 'in_progress' },
        commentId: null,
      },
    ],
    nextCursor: null,
    total: 2,
  },
  markRead: { upTo: 42 },
  marked: { readUpTo: 42, unread: 0 },
};
