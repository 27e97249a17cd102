import { z } from 'zod';
import { eventTypes } from '../../events.js';

const sequence = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const signalListQuerySchema = z.strictObject({
  /** Only events after this sequence number. */
  after: sequence.optional(),
  /** The nextCursor of the previous page: the same as `after`, kept opaque for clients. */
  cursor: z
    .string()
    .regex(/^\d{1,16}$/, 'expected the nextCursor of a previous page')
    .optional(),
  /** Comma-separated event types. */
  types: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    )
    .pipe(z.array(z.enum(eventTypes)).min(1))
    .optional(),
  resourceId: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type SignalListQuery = z.output<typeof signalListQuerySchema>;
