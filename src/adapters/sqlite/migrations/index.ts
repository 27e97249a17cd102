import { initialSchema } from './001_initial.js';
import { listCounts } from './002_list_counts.js';
import { membersAndTokenExpiry } from './003_members_and_token_expiry.js';
import { deliveryLeases } from './004_delivery_leases.js';
import { batchedSearch } from './005_batched_search.js';
import { insertsCountedByTheAdapter } from './006_inserts_counted_by_the_adapter.js';
import { partialIndexesOfOptionalReferences } from './007_partial_indexes_of_optional_references.js';
import { issueIndexesCarryTheFilters } from './008_issue_indexes_carry_the_filters.js';
import { signalCounts } from './009_signal_counts.js';
import { idempotencyAnswersInSignals } from './010_idempotency_answers_in_signals.js';
import { issuesByUpdateTime } from './011_issues_by_update_time.js';
import { dueDeliveriesBySubscription } from './012_due_deliveries_by_subscription.js';
import { membershipsByUser } from './013_memberships_by_user.js';
import { comments } from './014_comments.js';
import { issueRelations } from './015_issue_relations.js';
import { archive } from './016_archive.js';
import { sortOrders } from './017_sort_orders.js';
import { issueLabels } from './018_issue_labels.js';
import { counterWorkspaces } from './019_counter_workspaces.js';
import { externalRefs } from './020_external_refs.js';
import { dueDatesAndEstimates } from './021_due_dates_and_estimates.js';
import { watchers } from './022_watchers.js';
import { savedViews } from './023_saved_views.js';
import { outcomeTallies } from './024_outcome_tallies.js';
import { indexDiet } from './025_index_diet.js';
import { pairAndLabelCounts } from './026_pair_and_label_counts.js';
import { overdueOpenRows } from './027_overdue_open_rows.js';
import { tripleCounts } from './028_triple_counts.js';
import { coveringNullableSorts } from './029_covering_nullable_sorts.js';

/** One schema step. `version` is what `PRAGMA user_version` holds once it is applied. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration, in the order they apply. Append only: never edit a released one. */
export const migrations: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initialSchema },
  { version: 2, name: 'list counts', sql: listCounts },
  { version: 3, name: 'members and token expiry', sql: membersAndTokenExpiry },
  { version: 4, name: 'delivery leases', sql: deliveryLeases },
  { version: 5, name: 'batched search', sql: batchedSearch },
  { version: 6, name: 'inserts counted by the adapter', sql: insertsCountedByTheAdapter },
  { version: 7, name: 'partial indexes of optional references', sql: partialIndexesOfOptionalReferences },
  { version: 8, name: 'issue indexes carry the filters', sql: issueIndexesCarryTheFilters },
  { version: 9, name: 'signal counts', sql: signalCounts },
  { version: 10, name: 'idempotency answers in signals', sql: idempotencyAnswersInSignals },
  { version: 11, name: 'issues by update time', sql: issuesByUpdateTime },
  { version: 12, name: 'due deliveries by subscription', sql: dueDeliveriesBySubscription },
  { version: 13, name: 'memberships by user', sql: membershipsByUser },
  { version: 14, name: 'comments', sql: comments },
  { version: 15, name: 'issue relations', sql: issueRelations },
  { version: 16, name: 'archive', sql: archive },
  { version: 17, name: 'sort orders', sql: sortOrders },
  { version: 18, name: 'issue labels', sql: issueLabels },
  { version: 19, name: 'counter workspaces', sql: counterWorkspaces },
  { version: 20, name: 'external refs', sql: externalRefs },
  { version: 21, name: 'due dates and estimates', sql: dueDatesAndEstimates },
  { version: 22, name: 'watchers', sql: watchers },
  { version: 23, name: 'saved views', sql: savedViews },
  { version: 24, name: 'outcome tallies', sql: outcomeTallies },
  { version: 25, name: 'index diet', sql: indexDiet },
  { version: 26, name: 'pair and label counts', sql: pairAndLabelCounts },
  { version: 27, name: 'overdue open rows', sql: overdueOpenRows },
  { version: 28, name: 'triple counts', sql: tripleCounts },
  { version: 29, name: 'covering nullable sorts', sql: coveringNullableSorts },
];

/** The schema version this code knows. */
export const latestVersion = migrations.at(-1)?.version ?? 0;
