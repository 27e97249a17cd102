import { issueExamples } from '../issues/examples.js';
import { pageOf } from '../shared/examples.js';

/** The record every answer below shows, at its first version. */
const view = {
  id: 'view_7hQm2VxR4nKs9TbLpW3c',
  name: 'Open web bugs',
  resource: 'issues',
  query: 'status:open,blocked label:bug -label:wontfix',
  createdBy: 'usr_FVGq5J0otcivYAMuLNGs',
  createdAt: '2026-11-22T10:40:40.000Z',
  updatedAt: '2026-11-22T10:40:40.000Z',
  version: 1,
};

/** Requests and answers of the saved views routes, shown in the API reference (a test validates each against its schema). */
export const viewExamples = {
  create: { name: view.name, resource: view.resource, query: view.query },
  created: view,
  item: view,
  update: { query: 'status:open,blocked label:bug -label:wontfix severity:high,critical' },
  updated: {
    ...view,
    query: 'status:open,blocked label:bug -label:wontfix severity:high,critical',
    updatedAt: '2026-11-22T10:41:41.000Z',
    version: 2,
  },
  /** What running it answers: a page of its resource's list. */
  items: pageOf(issueExamples.item),
};
