import { z } from 'zod';
import { defaultPageSize, maxPageSize, optionalCursor, queryInteger } from '../../pipeline/pagination.js';
import { eventTypes, unknownEventType } from '../events.js';
import { idOf, pageOf, timestampOut } from '../shared/schema.js';

const sequence = queryInteger((n) => n.min(0).max(Number.MAX_SAFE_INTEGER));

export const signalListQuerySchema = z.strictObject({
  /** Only events after this sequence number. */
  after: sequence.optional(),
  /** The nextCursor of the previous page, bound to the types and resourceId it was made with (checked by listSignals). */
  cursor: optionalCursor,
  /** Event types, comma-separated (`types=a,b`), repeated (`types=a&types=b`) or both. */
  types: z
    .union([z.string(), z.array(z.string())])
    .transform((value) =>
      [value]
        .flat()
        .flatMap((list) => list.split(','))
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    )
    .pipe(z.array(z.enum(eventTypes, { error: unknownEventType('') })).min(1))
    // The document names the types the server takes: a comma-separated list of them, or them
    // repeated (the parse above is looser about spaces and empty entries, never about names).
    .meta({
      anyOf: [
        {
          type: 'string',
          pattern: `^(${eventTypes.join('|').replaceAll('.', '\\.')})(,(${eventTypes.join('|').replaceAll('.', '\\.')}))*$`,
        },
        { type: 'array', items: { enum: [...eventTypes] }, minItems: 1 },
      ],
    })
    .optional(),
  resourceId: z.string().min(1).max(100).optional(),
  limit: queryInteger((n) => n.min(1).max(maxPageSize).default(defaultPageSize)),
});
export type SignalListQuery = z.output<typeof signalListQuerySchema>;

/** One change-data-capture event (CONTRACT §4). */
export const signalEventSchema = z.strictObject({
  id: z.uuid(),
  sequence: z.number().int().min(1).describe('Strictly increasing in commit order'),
  type: z.enum(eventTypes),
  occurredAt: timestampOut,
  accountId: idOf('acct'),
  workspaceId: idOf('ws'),
  actor: z.strictObject({
    userId: idOf('usr').nullable(),
    tokenId: idOf('tok').nullable().describe('null for changes made by the operator through the CLI'),
  }),
  resource: z.strictObject({ type: z.string(), id: z.string() }),
  data: z
    .looseObject({
      object: z.record(z.string(), z.unknown()).describe('The resource after the change'),
      previous: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('The old values of the fields that changed'),
    })
    .describe(
      'Further members per type: `comment` on issue.status_changed, `secretRotated` on webhook.updated',
    ),
});
export const signalPageSchema = pageOf(signalEventSchema);
