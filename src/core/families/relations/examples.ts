/** Requests and answers of the relation routes, shown in the API reference (a test validates each against its schema). */
const relation = {
  id: 'rel_Q3vZp8LkT1xWm0aYcN5s',
  type: 'blocks',
  issueId: 'iss_H7dKq2MvX9pLr4sTw0Ey',
  createdAt: '2026-11-22T10:25:25.000Z',
  updatedAt: '2026-11-22T10:25:25.000Z',
  version: 1,
};

export const relationExamples = {
  create: { type: 'blocks', issueId: 'iss_H7dKq2MvX9pLr4sTw0Ey' },
  created: relation,
  page: { data: [relation], nextCursor: null, total: 1 },
  /** What `issue_relation.*` events carry: the relation as stored once. */
  stored: {
    id: 'rel_Q3vZp8LkT1xWm0aYcN5s',
    type: 'blocks',
    sourceId: 'iss_CuUE3PZrO8ENHJLaEhNH',
    targetId: 'iss_H7dKq2MvX9pLr4sTw0Ey',
    createdAt: '2026-11-22T10:25:25.000Z',
    updatedAt: '2026-11-22T10:25:25.000Z',
    version: 1,
  },
};
