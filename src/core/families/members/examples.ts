/** The record every answer below shows, at its first version. */
const member = {
  id: 'usr_URB5SQTmdlmedgaXOqRC',
  userId: 'usr_URB5SQTmdlmedgaXOqRC',
  email: 'grace@acme.test',
  role: 'member',
  createdAt: '2026-11-22T10:25:25.000Z',
  updatedAt: '2026-11-22T10:25:25.000Z',
  version: 1,
  lastActiveAt: null,
  tokenCount: 0,
};

/** Requests and answers of the members routes, shown in the API reference (a test validates each against its schema). */
export const memberExamples = {
  create: {
    email: 'grace@acme.test',
    role: 'member',
  },
  created: member,
  item: member,
  update: {
    role: 'admin',
  },
  updated: {
    ...member,
    role: 'admin',
    updatedAt: '2026-11-22T10:28:28.000Z',
    version: 2,
  },
  invite: {
    email: 'ada@acme.test',
    role: 'member',
  },
  invited: {
    memberId: 'usr_Vb7kQ2mXp9LrT4nW8sYz',
    email: 'ada@acme.test',
    role: 'member',
    inviteUrl: 'https://tracker.acme.test/invite/kS3xP0aVq7WmZ2rN9tLc4HbY6uEoJ1fD8gQsR5vTn0w',
    expiresAt: '2026-11-29T10:25:25.000Z',
  },
};
