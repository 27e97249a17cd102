import { projectExamples } from '../projects/examples.js';

/** Requests and answers of the signals routes, shown in the API reference (a test validates each against its schema). */
export const signalExamples = {
  page: {
    data: [
      {
        id: '3b398980-be51-4486-ad6e-f75a9877356a',
        type: 'project.created',
        occurredAt: '2026-11-22T10:01:01.000Z',
        accountId: 'acct_dJq0F1wXBt5njHqWBanl',
        workspaceId: 'ws_kTjCblMZGNCzbz7TKmhy',
        actor: {
          userId: 'usr_FVGq5J0otcivYAMuLNGs',
          tokenId: 'tok_1BZzJt9me1pEOEZxs23M',
        },
        resource: {
          type: 'project',
          id: 'prj_VR5yk3H00nIG1dind7u3',
        },
        data: {
          // The project the projects routes show, as its creation's signal carries it.
          object: projectExamples.created,
        },
        sequence: 1,
      },
    ],
    nextCursor: 'WzFd.VJtJ83puFo_5PDgV',
    total: 17,
  },
};
