/** The record every answer below shows, at its first version. */
const issue = {
  id: 'iss_CuUE3PZrO8ENHJLaEhNH',
  projectId: 'prj_VR5yk3H00nIG1dind7u3',
  number: 1,
  key: 'APO-1',
  title: 'Launch button does nothing on Safari',
  description: null,
  severity: 'medium',
  status: 'open',
  outcomeId: 'out_KA0v3sAwQE6znGhRcycX',
  assigneeId: null,
  labels: [],
  resolvedAt: null,
  commentCount: 0,
  parentId: null,
  blockedBy: 0,
  subIssues: 0,
  archivedAt: null,
  external: null,
  dueOn: null,
  estimate: null,
  createdAt: '2026-11-22T10:16:16.000Z',
  updatedAt: '2026-11-22T10:16:16.000Z',
  version: 1,
};

/** Requests and answers of the issues routes, shown in the API reference (a test validates each against its schema). */
export const issueExamples = {
  create: {
    projectId: 'prj_VR5yk3H00nIG1dind7u3',
    title: 'Launch button does nothing on Safari',
    outcomeId: 'out_KA0v3sAwQE6znGhRcycX',
  },
  created: issue,
  item: issue,
  update: {
    severity: 'high',
    labels: ['safari'],
  },
  updated: {
    ...issue,
    severity: 'high',
    labels: ['safari'],
    updatedAt: '2026-11-22T10:19:19.000Z',
    version: 2,
  },
  transition: {
    to: 'in_progress',
  },
  transitioned: {
    ...issue,
    severity: 'high',
    status: 'in_progress',
    labels: ['safari'],
    updatedAt: '2026-11-22T10:20:20.000Z',
    version: 3,
  },
};
