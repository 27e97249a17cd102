import { issueExamples } from '../issues/examples.js';

/** A batch and its answer, shown in the API reference (a test validates each against its schema). */
export const batchExamples = {
  request: {
    operations: [
      { method: 'POST', path: '/issues', body: issueExamples.create },
      {
        method: 'PATCH',
        path: '/issues/APO-1',
        ifMatch: '"1"',
        body: issueExamples.update,
      },
    ],
  },
  response: {
    results: [
      {
        status: 201,
        body: issueExamples.created,
        etag: '"1"',
        location: '/api/v1/issues/iss_CuUE3PZrO8ENHJLaEhNH',
      },
      {
        status: 200,
        body: { ...issueExamples.updated, updatedAt: issueExamples.created.updatedAt },
        etag: '"2"',
      },
    ],
  },
};
