import { runArchiveSuite } from './archive.js';
import { runBatchSuite } from './batch.js';
import { runCommentSuite } from './comments.js';
import { runContextSuite } from './context.js';
import { runDecisionSuite } from './decisions.js';
import { runExternalSuite } from './external.js';
import { runFilterSuite } from './filters.js';
import { runIssueKeySuite } from './issues.js';
import { runLabelSuite } from './labels.js';
import { runMemberSuite } from './members.js';
import { runOutcomeSuite } from './outcomes.js';
import { runProjectSuite } from './projects.js';
import { runRelationSuite } from './relations.js';
import { runSortingSuite } from './sorting.js';
import type { Target } from './support.js';
import { runTimeEntrySuite } from './time-entries.js';
import { runViewSuite } from './views.js';

/** Every data family's suite, through one host on one storage adapter. */
export function runFamilySuites(target: Target): void {
  runProjectSuite(target);
  runOutcomeSuite(target);
  runContextSuite(target);
  runDecisionSuite(target);
  runTimeEntrySuite(target);
  runCommentSuite(target);
  runViewSuite(target);
  runRelationSuite(target);
  runArchiveSuite(target);
  runIssueKeySuite(target);
  runExternalSuite(target);
  runMemberSuite(target);
  runBatchSuite(target);
  runSortingSuite(target);
  runFilterSuite(target);
  runLabelSuite(target);
}
