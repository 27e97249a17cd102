/** The record every answer below shows, at its first version. */
const decision = {
  id: 'dec_2BygSippl6D0DPSLNUwy',
  projectId: 'prj_VR5yk3H00nIG1dind7u3',
  title: 'Launch on Tuesdays',
  rationale: 'Support is fully staffed mid-week.',
  participants: [],
  outcomeId: 'out_KA0v3sAwQE6znGhRcycX',
  status: 'proposed',
  decidedAt: null,
  supersededBy: null,
  commentCount: 0,
  createdAt: '2026-11-22T10:12:12.000Z',
  updatedAt: '2026-11-22T10:12:12.000Z',
  version: 1,
};

/** Requests and answers of the decisions routes, shown in the API reference (a test validates each against its schema). */
export const decisionExamples = {
  create: {
    projectId: 'prj_VR5yk3H00nIG1dind7u3',
    title: 'Launch on Tuesdays',
    rationale: 'Support is fully staffed mid-week.',
    outcomeId: 'out_KA0v3sAwQE6znGhRcycX',
  },
  created: decision,
  item: decision,
  update: {
    title: 'Launch on Tuesdays only',
  },
  updated: {
    ...decision,
    title: 'Launch on Tuesdays only',
    updatedAt: '2026-11-22T10:15:15.000Z',
    version: 2,
  },
};
