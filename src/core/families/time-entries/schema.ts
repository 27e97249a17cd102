import { z } from 'zod';
import { calendarDate } from '../shared/dates.js';
import { filterLists, idList } from '../shared/filters.js';
import {
  dateOut,
  idOf,
  listQueryBase,
  pageOf,
  serviceOwnedFields,
  versionedFields,
  withoutReadOnly,
} from '../shared/schema.js';
import { sortQuery } from '../shared/sort.js';
import { standardSchemas } from '../shared/standard-schemas.js';

const minutes = z.number().int().min(1).max(1440);
const note = z.string().max(10_000).nullable();

// userId is service-owned: time is always logged as the token's user.
export const timeEntryCreateSchema = withoutReadOnly(
  serviceOwnedFields,
  z.strictObject({
    outcomeId: idOf('out'),
    minutes,
    date: calendarDate,
    issueId: idOf('iss').nullable().optional(),
    note: note.optional(),
  }),
);
export type TimeEntryCreate = z.output<typeof timeEntryCreateSchema>;

export const timeEntryPatchSchema = withoutReadOnly(
  serviceOwnedFields,
  z.strictObject({
    outcomeId: idOf('out').optional(),
    minutes: minutes.optional(),
    date: calendarDate.optional(),
    issueId: idOf('iss').nullable().optional(),
    note: note.optional(),
  }),
);
export type TimeEntryPatch = z.output<typeof timeEntryPatchSchema>;

export const timeEntryListQuerySchema = z
  .strictObject({
    ...listQueryBase,
    ...filterLists({ outcomeId: idList('out'), issueId: idList('iss'), userId: idList('usr') }),
    /** Entries dated on or after this day. */
    from: calendarDate.optional(),
    /** Entries dated on or before this day. */
    to: calendarDate.optional(),
    sort: sortQuery(['date', 'minutes', 'createdAt'], '-createdAt'),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'from must not be after to',
    path: ['from'],
  });
export type TimeEntryListQuery = z.output<typeof timeEntryListQuerySchema>;

/** A time entry as the API answers it. */
export const timeEntrySchema = z.strictObject({
  ...versionedFields('te'),
  outcomeId: idOf('out'),
  issueId: idOf('iss').nullable(),
  userId: idOf('usr').describe("The user who logged the time: always the token's user"),
  minutes: z.number().int().min(1).max(1440),
  date: dateOut,
  note: z.string().nullable(),
});

/** The read envelope plus the minutes of every matching entry, not just this page's. */
export const timeEntryPageSchema = pageOf(timeEntrySchema).extend({
  totalMinutes: z.number().int().min(0),
});

/** The family's standard schemas, read by its routes and by its OpenAPI components. */
export const timeEntrySchemas = standardSchemas({
  component: 'TimeEntry',
  item: timeEntrySchema,
  page: timeEntryPageSchema,
  listQuery: timeEntryListQuerySchema,
  create: timeEntryCreateSchema,
  patch: timeEntryPatchSchema,
});
