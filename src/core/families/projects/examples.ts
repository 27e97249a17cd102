/** The record every answer below shows, at its first version. */
const project = {
  id: 'prj_VR5yk3H00nIG1dind7u3',
  name: 'Apollo',
  key: 'APO',
  description: 'The launch programme',
  createdAt: '2026-11-22T10:01:01.000Z',
  updatedAt: '2026-11-22T10:01:01.000Z',
  version: 1,
};

/** Requests and answers of the projects routes, shown in the API reference (a test validates each against its schema). */
export const projectExamples = {
  create: {
    name: 'Apollo',
    description: 'The launch programme',
  },
  created: project,
  item: project,
  update: {
    description: 'Launch by Q3',
  },
  updated: {
    ...project,
    description: 'Launch by Q3',
    updatedAt: '2026-11-22T10:04:04.000Z',
    version: 2,
  },
};
