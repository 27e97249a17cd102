import { commentsFamily } from './comments/family.js';
import { contextFamily } from './context/family.js';
import { decisionsFamily } from './decisions/family.js';
import { issuesFamily } from './issues/family.js';
import { labelsFamily } from './labels/family.js';
import { membersFamily } from './members/family.js';
import { outcomesFamily } from './outcomes/family.js';
import { projectsFamily } from './projects/family.js';
import { relationsFamily } from './relations/family.js';
import { timeEntriesFamily } from './time-entries/family.js';
import { viewsFamily } from './views/family.js';

/**
 * The resource families, in the order the API reference shows them: the family list
 * (`index.ts`) is these, then the families that serve them all (notifications, webhooks,
 * signals, batch). Kept apart because the event catalogue (`events.ts`) is made of these
 * families' events, and the webhook and signal families validate against that catalogue: the
 * whole list would import itself. A new family is one line at the end of this list
 * (`npm run new-family -- <name>` writes it).
 */
export const resourceFamilies = [
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
] as const;
