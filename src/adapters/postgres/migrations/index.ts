import { initialSchema } from './001_initial.js';
import { rateLimitDecisions } from './002_rate_limit_decisions.js';
import { membersAndTokenExpiry } from './003_members_and_token_expiry.js';
import { deliveryLeases } from './004_delivery_leases.js';
import { partialIndexesOfOptionalReferences } from './005_partial_indexes_of_optional_references.js';
import { idempotencyAnswersInSignals } from './006_idempotency_answers_in_signals.js';
import { issuesByUpdateTime } from './007_issues_by_update_time.js';
import { dueDeliveriesBySubscription } from './008_due_deliveries_by_subscription.js';
import { membershipsByUser } from './009_memberships_by_user.js';
import { storageTimeShares } from './010_storage_time_shares.js';
import { rateLimitRuns } from './011_rate_limit_runs.js';
import { comments } from './012_comments.js';
import { issueRelations } from './013_issue_relations.js';
import { archive } from './014_archive.js';
import { sortOrders } from './015_sort_orders.js';
import { issueLabels } from './016_issue_labels.js';
import { accountKeys } from './017_account_keys.js';
import { accountSequences } from './018_account_sequences.js';
import { externalRefs } from './019_external_refs.js';
import { dueDatesAndEstimates } from './020_due_dates_and_estimates.js';
import { watchers } from './021_watchers.js';
import { rateLimitAllowances } from './022_rate_limit_allowances.js';
import { labelsKeptByTheAdapter } from './023_labels_kept_by_the_adapter.js';
import { savedViews } from './024_saved_views.js';
import { outcomeTallies } from './025_outcome_tallies.js';
import { indexDiet } from './026_index_diet.js';
import { overdueOpenRows } from './027_overdue_open_rows.js';
import { watchTextOrder } from './028_watch_text_order.js';
import { outcomeIssueCounts } from './029_outcome_issue_counts.js';
import { issueListCounts } from './030_issue_list_counts.js';
import { moreIssueListCounts } from './031_more_issue_list_counts.js';
import { allIssueCounts } from './032_all_issue_counts.js';
import { coveringNullableSorts } from './033_covering_nullable_sorts.js';

/** One schema step, recorded in `schema_migrations` once applied. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration, in the order they apply. Append only: never edit a released one. */
export const migrations: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initialSchema },
  { version: 2, name: 'rate limit decisions', sql: rateLimitDecisions },
  { version: 3, name: 'members and token expiry', sql: membersAndTokenExpiry },
  { version: 4, name: 'delivery leases', sql: deliveryLeases },
  { version: 5, name: 'partial indexes of optional references', sql: partialIndexesOfOptionalReferences },
  { version: 6, name: 'idempotency answers in signals', sql: idempotencyAnswersInSignals },
  { version: 7, name: 'issues by update time', sql: issuesByUpdateTime },
  { version: 8, name: 'due deliveries by subscription', sql: dueDeliveriesBySubscription },
  { version: 9, name: 'memberships by user', sql: membershipsByUser },
  { version: 10, name: 'storage time shares', sql: storageTimeShares },
  { version: 11, name: 'rate limit runs', sql: rateLimitRuns },
  { version: 12, name: 'comments', sql: comments },
  { version: 13, name: 'issue relations', sql: issueRelations },
  { version: 14, name: 'archive', sql: archive },
  { version: 15, name: 'sort orders', sql: sortOrders },
  { version: 16, name: 'issue labels', sql: issueLabels },
  { version: 17, name: 'account keys', sql: accountKeys },
  { version: 18, name: 'account sequences', sql: accountSequences },
  { version: 19, name: 'external refs', sql: externalRefs },
  { version: 20, name: 'due dates and estimates', sql: dueDatesAndEstimates },
  { version: 21, name: 'watchers', sql: watchers },
  { version: 22, name: 'rate limit allowances', sql: rateLimitAllowances },
  { version: 23, name: 'labels kept by the adapter', sql: labelsKeptByTheAdapter },
  { version: 24, name: 'saved views', sql: savedViews },
  { version: 25, name: 'outcome tallies', sql: outcomeTallies },
  { version: 26, name: 'index diet', sql: indexDiet },
  { version: 27, name: 'overdue open rows', sql: overdueOpenRows },
  { version: 28, name: 'watch text order', sql: watchTextOrder },
  { version: 29, name: 'outcome issue counts', sql: outcomeIssueCounts },
  { version: 30, name: 'issue list counts', sql: issueListCounts },
  { version: 31, name: 'more issue list counts', sql: moreIssueListCounts },
  { version: 32, name: 'all issue counts', sql: allIssueCounts },
  { version: 33, name: 'covering nullable sorts', sql: coveringNullableSorts },
];

/** The schema version this code knows. */
export const latestVersion = migrations.at(-1)?.version ?? 0;
