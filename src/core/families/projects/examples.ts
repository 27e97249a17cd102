/** Requests and answers of the projects routes, shown in the API reference (a test validates each against its schema). */
export const projectExamples = {
  create: {
    name: 'Apollo',
    description: 'The launch programme',
  },
  created: {
    id: 'prj_VR5yk3H00nIG1dind7u3',
    name: 'Apollo',
    key: 'APO',
    description: 'The launch programme',
    createdAt: '2026-11-22T10:01:01.000Z',
    updatedAt: '2026-11-22T10:01:01.000Z',
    version: 1,
  },
  item: {
    id: 'prj_VR5yk3H00nIG1dind7u3',
    name: 'Apollo',
    key: 'APO',
    description: 'The launch programme',
    createdAt: '2026-11-22T10:01:01.000Z',
    updatedAt: '2026-11-22T10:01:01.000Z',
    version: 1,
  },
  update: {
    description: 'Launch by Q3',
  },
  updated: {
    id: 'prj_VR5yk3H00nIG1dind7u3',
    name: 'Apollo',
    key: 'APO',
    description: 'Launch by Q3',
    createdAt: '2026-11-22T10:01:01.000Z',
    updatedAt: '2026-11-22T10:04:04.000Z',
    version: 2,
  },
};
