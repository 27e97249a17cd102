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
};
