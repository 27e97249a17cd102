/** The issues family as typed operations, for embedding without HTTP. */
export {
  createIssue as create,
  getIssue as get,
  listIssues as list,
  updateIssue as update,
  transitionIssue as transition,
  type IssueView,
} from './operations.js';
export type { IssueCreate, IssuePatch, IssueTransition, IssueListQuery } from './schema.js';
export { issueTransitions as transitions } from './transitions.js';
