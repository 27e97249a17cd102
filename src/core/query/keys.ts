import {
  decisionStatuses,
  issueSeverities,
  issueStatuses,
  openIssueStatuses,
  openOutcomeStatuses,
  outcomeStatuses,
} from '../model.js';

/** What a key of the query language stands for, as a rule its values are read by. */
export type KeyRule =
  /** One of `values`, or a comma list of them (any of): `field` / `-field`. */
  | { kind: 'enum'; field: string; values: readonly string[] }
  /**
   * An id with `prefix`, or a comma list (any of); with `me`, the token's user; with `none`, no
   * value; with `projectKey`, a project's key (`APO`) for its id.
   */
  | { kind: 'id'; field: string; prefix: string; me?: boolean; none?: boolean; projectKey?: boolean }
  /** Issue labels: one (`labels`), a comma list (`labelsAny`), negated (`labelsNone`). */
  | { kind: 'label' }
  /**
   * A day compared (`<`, `<=`, `>`, `>=`, a day, `a..b`): the inclusive `after` and exclusive
   * `before` filters, days (`YYYY-MM-DD`) or, with `time`, that day's first instant (UTC).
   */
  | { kind: 'day'; after: string; before: string; time?: boolean }
  /** A number compared (`<=`, `>=`, a number, `a..b`): inclusive `min` and `max` filters. */
  | { kind: 'number'; min: string; max: string }
  /** `is:<state>`: each state a filter of its own. */
  | { kind: 'is'; states: readonly IsState[] }
  /** `sort:<name>[-asc|-desc]`: the `sort` parameter of the field each name stands for. */
  | { kind: 'sort'; fields: Readonly<Record<string, string>> };

export type IsState = 'overdue' | 'archived' | 'blocked';

/** The resources a query lists. */
export type QueryResource = 'issues' | 'outcomes' | 'decisions';

/** Each resource's keys, and whether it takes free text (its `q`). */
export interface QueryKeys {
  keys: Readonly<Record<string, KeyRule>>;
  freeText: boolean;
  /** The statuses `is:overdue` keeps (an item still open). */
  openStatuses: readonly string[];
}

const created: KeyRule = { kind: 'day', after: 'createdAfter', before: 'createdBefore', time: true };
const updated: KeyRule = { kind: 'day', after: 'updatedSince', before: 'updatedBefore', time: true };
const due: KeyRule = { kind: 'day', after: 'dueAfter', before: 'dueBefore' };
const project: KeyRule = { kind: 'id', field: 'projectId', prefix: 'prj', projectKey: true };

/** The keys of every resource: the documented table (docs/api.md) lists these. */
export const queryKeys: Readonly<Record<QueryResource, QueryKeys>> = {
  issues: {
    freeText: true,
    openStatuses: openIssueStatuses,
    keys: {
      status: { kind: 'enum', field: 'status', values: issueStatuses },
      severity: { kind: 'enum', field: 'severity', values: issueSeverities },
      label: { kind: 'label' },
      assignee: { kind: 'id', field: 'assigneeId', prefix: 'usr', me: true, none: true },
      project,
      outcome: { kind: 'id', field: 'outcomeId', prefix: 'out' },
      parent: { kind: 'id', field: 'parentId', prefix: 'iss' },
      due,
      estimate: { kind: 'number', min: 'estimateMin', max: 'estimateMax' },
      created,
      updated,
      is: { kind: 'is', states: ['overdue', 'archived', 'blocked'] },
      sort: {
        kind: 'sort',
        fields: {
          created: 'createdAt',
          updated: 'updatedAt',
          number: 'number',
          severity: 'severity',
          status: 'status',
          title: 'title',
          due: 'dueOn',
          estimate: 'estimate',
        },
      },
    },
  },
  outcomes: {
    freeText: true,
    openStatuses: openOutcomeStatuses,
    keys: {
      status: { kind: 'enum', field: 'status', values: outcomeStatuses },
      owner: { kind: 'id', field: 'ownerId', prefix: 'usr', me: true },
      project,
      due,
      created,
      updated,
      is: { kind: 'is', states: ['overdue', 'archived'] },
      sort: {
        kind: 'sort',
        fields: { created: 'createdAt', updated: 'updatedAt', title: 'title', due: 'dueDate' },
      },
    },
  },
  decisions: {
    freeText: false,
    openStatuses: [],
    keys: {
      status: { kind: 'enum', field: 'status', values: decisionStatuses },
      project,
      outcome: { kind: 'id', field: 'outcomeId', prefix: 'out' },
      created,
      updated,
      sort: { kind: 'sort', fields: { created: 'createdAt', updated: 'updatedAt' } },
    },
  },
};
