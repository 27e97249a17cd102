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

/** Every data family's suite, in the order they run. */
const familySuites: readonly ((target: Target) => void)[] = [
  runProjectSuite,
  runOutcomeSuite,
  runContextSuite,
  runDecisionSuite,
  runTimeEntrySuite,
  runCommentSuite,
  runViewSuite,
  runRelationSuite,
  runArchiveSuite,
  runIssueKeySuite,
  runExternalSuite,
  runMemberSuite,
  runBatchSuite,
  runSortingSuite,
  runFilterSuite,
  runLabelSuite,
];

/**
 * The adapters whose families run through one host each, half through either. A host reads the
 * request and writes the answer, the same whatever the storage; an adapter stores, the same
 * whatever the host. So every family runs through both hosts on memory and SQLite, every family
 * runs on PostgreSQL (and Citus) through one host, and each host runs half of them there: every
 * pair of family, host and adapter is covered, at half the cost of a server's suites (on Citus, six
 * minutes of a run).
 */
const oneHostPerFamily = new Set(['postgres', 'citus']);

/** Every data family's suite through one host on one storage adapter (on a server, half: above). */
export function runFamilySuites(target: Target): void {
  const half = oneHostPerFamily.has(target.adapter.name) ? (target.host === 'node' ? 0 : 1) : undefined;
  familySuites.forEach((run, index) => {
    if (half === undefined || index % 2 === half) run(target);
  });
}
