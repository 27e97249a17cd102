/** The record every answer below shows, at its first version. */
const contextItem = {
  id: 'ctx_nKSzBEMuKD0ArBJmUJ5B',
  outcomeId: 'out_KA0v3sAwQE6znGhRcycX',
  kind: 'note',
  title: 'Launch checklist',
  url: null,
  body: 'Run the checklist before every launch.',
  createdAt: '2026-11-22T10:09:09.000Z',
  updatedAt: '2026-11-22T10:09:09.000Z',
  version: 1,
};

/** Requests and answers of the context routes, shown in the API reference (a test validates each against its schema). */
export const contextExamples = {
  create: {
    kind: 'note',
    title: 'Launch checklist',
    body: 'Run the checklist before every launch.',
    outcomeId: 'out_KA0v3sAwQE6znGhRcycX',
  },
  created: contextItem,
  item: contextItem,
};
