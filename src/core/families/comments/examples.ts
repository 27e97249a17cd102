/** The record every answer below shows, at its first version. */
const comment = {
  id: 'cmt_ZpL0s3kQv8aRuT2mYw4N',
  issueId: 'iss_CuUE3PZrO8ENHJLaEhNH',
  outcomeId: null,
  decisionId: null,
  authorId: 'usr_FVGq5J0otcivYAMuLNGs',
  body: 'Reproduced on Safari 18: the click handler never fires.',
  editedAt: null,
  createdAt: '2026-11-22T10:22:22.000Z',
  updatedAt: '2026-11-22T10:22:22.000Z',
  version: 1,
};

/** Requests and answers of the comments routes, shown in the API reference (a test validates each against its schema). */
export const commentExamples = {
  create: {
    issueId: 'iss_CuUE3PZrO8ENHJLaEhNH',
    body: 'Reproduced on Safari 18: the click handler never fires.',
  },
  created: comment,
  item: comment,
  update: {
    body: 'Reproduced on Safari 18 and 17: the click handler never fires.',
  },
  updated: {
    ...comment,
    body: 'Reproduced on Safari 18 and 17: the click handler never fires.',
    editedAt: '2026-11-22T10:23:23.000Z',
    updatedAt: '2026-11-22T10:23:23.000Z',
    version: 2,
  },
};
