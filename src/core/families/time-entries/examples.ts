/** The record every answer below shows, at its first version. */
const timeEntry = {
  id: 'te_XwjP9aFKiguX9z8DZ1PW',
  outcomeId: 'out_KA0v3sAwQE6znGhRcycX',
  issueId: 'iss_CuUE3PZrO8ENHJLaEhNH',
  userId: 'usr_FVGq5J0otcivYAMuLNGs',
  minutes: 90,
  date: '2026-11-22',
  note: 'Reproduced on Safari 18',
  createdAt: '2026-11-22T10:21:21.000Z',
  updatedAt: '2026-11-22T10:21:21.000Z',
  version: 1,
};

/** Requests and answers of the time entries routes, shown in the API reference (a test validates each against its schema). */
export const timeEntryExamples = {
  create: {
    outcomeId: 'out_KA0v3sAwQE6znGhRcycX',
    issueId: 'iss_CuUE3PZrO8ENHJLaEhNH',
    minutes: 90,
    date: '2026-11-22',
    note: 'Reproduced on Safari 18',
  },
  created: timeEntry,
  item: timeEntry,
  update: {
    minutes: 120,
  },
  updated: {
    ...timeEntry,
    minutes: 120,
    updatedAt: '2026-11-22T10:24:24.000Z',
    version: 2,
  },
  page: {
    data: [timeEntry],
    nextCursor: null,
    total: 1,
    totalMinutes: 90,
  },
};
