/** The issues family as typed operations, for embedding without HTTP. */
export {
  archiveIssue as archive,
  createIssue as create,
  getIssue as get,
  type IssueView,
  listIssues as list,
  transitionIssue as transition,
  unarchiveIssue as unarchive,
  updateIssue as update,
} from './operations.js';
export type { IssueCreate, IssueListQuery, IssuePatch, IssueTransition } from './schema.js';
export { issueTransitions as transitions } from './transitions.js';
