import { batchFamily } from './batch/family.js';
import { notificationsFamily } from './notifications/family.js';
import { resourceFamilies } from './resources.js';
import { signalsFamily } from './signals/family.js';
import { webhooksFamily } from './webhooks/family.js';

/**
 * Every family of the tracker, in the order the API reference shows them: the resource families
 * (`resources.ts`, where a new family's line goes), then those serving them all. The route table,
 * the OpenAPI document, the adapters' collections, `copy` and export/import are derived from it
 * (and the event catalogue from the resource families' events, see events.ts): a new family is a
 * folder, a line in `resources.ts`, and a migration per SQL adapter.
 */
export const families = [
  ...resourceFamilies,
  notificationsFamily,
  webhooksFamily,
  signalsFamily,
  batchFamily,
] as const;
