import { batchFamily } from './batch/family.js';
import { commentsFamily } from './comments/family.js';
import { contextFamily } from './context/family.js';
import { decisionsFamily } from './decisions/family.js';
import { issuesFamily } from './issues/family.js';
import { labelsFamily } from './labels/family.js';
import { membersFamily } from './members/family.js';
import { notificationsFamily } from './notifications/family.js';
import { outcomesFamily } from './outcomes/family.js';
import { projectsFamily } from './projects/family.js';
import { relationsFamily } from './relations/family.js';
import { signalsFamily } from './signals/family.js';
import { timeEntriesFamily } from './time-entries/family.js';
import { viewsFamily } from './views/family.js';
import { webhooksFamily } from './webhooks/family.js';

/**
 * Every family of the tracker, in the order the API reference shows them. The route table, the
 * OpenAPI document, the adapters' collections, `copy` and export/import are derived from it (and
 * the event catalogue from the families' events, see events.ts): a new family is a folder, a
 * line here, and a migration per SQL adapter.
 */
export const families = [
  projectsFamily,
  outcomesFamily,
  contextFamily,
  decisionsFamily,
  issuesFamily,
  relationsFamily,
  labelsFamily,
  timeEntriesFamily,
  commentsFamily,
  viewsFamily,
  membersFamily,
  notificationsFamily,
  webhooksFamily,
  signalsFamily,
  batchFamily,
] as const;
