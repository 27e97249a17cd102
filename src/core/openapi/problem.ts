import { z } from 'zod';
import { errorCodes } from '../errors.js';
import { issueStatuses } from '../model.js';

/** One reason a request was refused, in a validation_failed problem. */
const validationIssueSchema = z.strictObject({
  in: z.enum(['body', 'query', 'header', 'path']),
  path: z.string().describe('Dot-separated path inside that location, e.g. `labels.0`; empty for all of it'),
  message: z.string(),
  term: z
    .string()
    .optional()
    .describe('`query` only: the term of the query language that is wrong, as written'),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('`query` only: where that term begins in the query (from 0)'),
});

/**
 * The problem+json body of every error (RFC 9457 with the seed's `error` code). The extras are
 * listed one by one, so an error carrying an undocumented member fails the response checks.
 */
export const problemSchema = z.strictObject({
  type: z.url().describe('A URI naming the error code'),
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string().describe('What went wrong with this request, for people'),
  error: z.enum(errorCodes).describe('The stable code for programs'),
  issues: z.array(validationIssueSchema).optional().describe('validation_failed: every bad value'),
  from: z.enum(issueStatuses).optional().describe('invalid_transition: the current status'),
  to: z.enum(issueStatuses).optional().describe('invalid_transition: the status asked for'),
  allowed: z
    .array(z.enum(issueStatuses))
    .optional()
    .describe('invalid_transition: the statuses reachable from `from`'),
  field: z.string().optional().describe('invalid_reference: the body field naming the missing resource'),
  path: z
    .array(z.string())
    .optional()
    .describe(
      'relation_cycle: the keys of the issues around the cycle the relation would close, first and last the same',
    ),
  relationId: z
    .string()
    .optional()
    .describe(
      'relation_exists: the relation already saying so; second_parent: the parent relation the issue has',
    ),
  references: z
    .strictObject({
      issues: z.number().int().min(0),
      decisions: z.number().int().min(0),
      timeEntries: z.number().int().min(0),
    })
    .optional()
    .describe('resource_in_use: what still refers to the outcome'),
  currentVersion: z.number().int().min(1).optional().describe('version_conflict: the current version'),
  allow: z.array(z.string()).optional().describe('method_not_allowed: the methods this path answers'),
  retryAfter: z.number().int().min(0).optional().describe('rate_limited: seconds until a request fits'),
  limit: z
    .number()
    .int()
    .optional()
    .describe(
      'payload_too_large: the largest body accepted, in bytes; subscription_limit_reached: the most webhook subscriptions an account may have',
    ),
  received: z.string().nullable().optional().describe('The header value that was refused'),
  requiredScope: z.enum(['read_write']).optional().describe('insufficient_scope: the scope needed'),
  requiredRole: z.enum(['member', 'admin']).optional().describe('forbidden: the role needed'),
  memberId: z.string().optional().describe('already_member: the id of the existing member'),
  failedIndex: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('A batch: the operation that failed (the other members are its problem), so none applied'),
  operations: z
    .array(
      z.strictObject({
        outcome: z
          .enum(['rolled_back', 'failed', 'not_run'])
          .describe('rolled_back: it ran and was undone; failed: this one; not_run: after it'),
        status: z.number().int().optional().describe('What it answered (or would have, alone)'),
        body: z.record(z.string(), z.unknown()).optional().describe('failed: its problem'),
      }),
    )
    .optional()
    .describe("A batch: every operation's outcome, in order"),
});
