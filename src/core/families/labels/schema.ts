import { z } from 'zod';
import { pageQuery } from '../../pipeline/pagination.js';
import { pageOf } from '../shared/schema.js';

/** `GET /labels`: paging only; labels come in name order. */
export const labelListQuerySchema = z.strictObject({ ...pageQuery });
export type LabelListQuery = z.output<typeof labelListQuerySchema>;

/** A label as the API answers it: its name and how many issues carry it. */
export const labelSchema = z.strictObject({
  name: z.string().describe('The label, as issues carry it'),
  issueCount: z
    .number()
    .int()
    .min(1)
    .describe('How many issues of the workspace carry it, archived ones included'),
});
export const labelPageSchema = pageOf(labelSchema);
