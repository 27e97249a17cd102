/** The issues family as typed operations, for embedding without HTTP. */
export {
  createIssue as create,
  getIssue as get,
  type IssueView,
  listIssues as list,
  transitionIssue as transition,
  updateIssue as update,
} from './operations.js';
export type { IssueCreate, IssueListQuery, IssuePatch, IssueTransition } from './schema.js';
export { issueTransitions as transitions } from './transitions.js';
