/** Requests and answers of the members routes, shown in the API reference (a test validates each against its schema). */
export const memberExamples = {
  create: {
    email: 'grace@acme.test',
    role: 'member',
  },
  created: {
    id: 'usr_URB5SQTmdlmedgaXOqRC',
    userId: 'usr_URB5SQTmdlmedgaXOqRC',
    email: 'grace@acme.test',
    role: 'member',
    createdAt: '2026-11-22T10:25:25.000Z',
    updatedAt: '2026-11-22T10:25:25.000Z',
    version: 1,
    lastActiveAt: null,
    tokenCount: 0,
  },
  item: {
    id: 'usr_URB5SQTmdlmedgaXOqRC',
    userId: 'usr_URB5SQTmdlmedgaXOqRC',
    email: 'grace@acme.test',
    role: 'member',
    createdAt: '2026-11-22T10:25:25.000Z',
    updatedAt: '2026-11-22T10:25:25.000Z',
    version: 1,
    lastActiveAt: null,
    tokenCount: 0,
  },
  update: {
    role: 'admin',
  },
  updated: {
    id: 'usr_URB5SQTmdlmedgaXOqRC',
    userId: 'usr_URB5SQTmdlmedgaXOqRC',
    email: 'grace@acme.test',
    role: 'admin',
    createdAt: '2026-11-22T10:25:25.000Z',
    updatedAt: '2026-11-22T10:28:28.000Z',
    version: 2,
    lastActiveAt: null,
    tokenCount: 0,
  },
};
