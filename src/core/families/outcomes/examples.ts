/** The record every answer below shows, at its first version. */
const outcome = {
  id: 'out_KA0v3sAwQE6znGhRcycX',
  projectId: 'prj_VR5yk3H00nIG1dind7u3',
  title: 'Customers launch in one click',
  description: null,
  status: 'planned',
  ownerId: null,
  dueDate: null,
  shippedAt: null,
  commentCount: 0,
  archivedAt: null,
  createdAt: '2026-11-22T10:05:05.000Z',
  updatedAt: '2026-11-22T10:05:05.000Z',
  version: 1,
};

/** Requests and answers of the outcomes routes, shown in the API reference (a test validates each against its schema). */
export const outcomeExamples = {
  create: {
    projectId: 'prj_VR5yk3H00nIG1dind7u3',
    title: 'Customers launch in one click',
  },
  created: outcome,
  item: outcome,
  update: {
    title: 'Customers launch in one click, on any plan',
  },
  updated: {
    ...outcome,
    title: 'Customers launch in one click, on any plan',
    updatedAt: '2026-11-22T10:08:08.000Z',
    version: 2,
  },
  summary: {
    outcomeId: outcome.id,
    issues: {
      total: 5,
      byStatus: { open: 2, in_progress: 1, blocked: 1, resolved: 1, closed: 0 },
      bySeverity: { low: 1, medium: 2, high: 1, critical: 1 },
    },
    openBlockers: {
      total: 1,
      issues: [{ id: 'iss_0VR5yk3H00nIG1dind7v', key: 'APO-7', title: 'Payment provider sandbox is down' }],
    },
    time: {
      totalMinutes: 390,
      byUser: { usr_0VR5yk3H00nIG1dind7a: 270, usr_0VR5yk3H00nIG1dind7b: 120 },
      byWeek: { '2026-W47': 150, '2026-W48': 240 },
    },
    decisions: { total: 2, byStatus: { proposed: 1, accepted: 1, rejected: 0, superseded: 0 } },
    lastActivityAt: '2026-11-24T16:30:00.000Z',
  },
};
