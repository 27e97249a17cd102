import { z } from 'zod';
import { relationTypes, storedRelationTypes } from '../../model.js';
import { pageQuery } from '../../pipeline/pagination.js';
import {
  idOf,
  serviceOwnedFields,
  timestampOut,
  versionedFields,
  withoutReadOnly,
} from '../shared/schema.js';

export const relationCreateSchema = withoutReadOnly(
  serviceOwnedFields,
  z.strictObject({
    type: z.enum(relationTypes).describe('What this issue is to `issueId`'),
    issueId: idOf('iss').describe('The other issue, of the same workspace'),
  }),
);
export type RelationCreate = z.output<typeof relationCreateSchema>;

export const relationListQuerySchema = z.strictObject({ ...pageQuery });
export type RelationListQuery = z.output<typeof relationListQuerySchema>;

/** A relation as read from one of its issues: its type from that end, and the other end. */
export const relationSchema = z.strictObject({
  ...versionedFields('rel'),
  type: z.enum(relationTypes).describe('What the issue of the path is to `issueId`'),
  issueId: idOf('iss').describe('The issue at the other end'),
});

export const relationPageSchema = z.strictObject({
  data: z.array(relationSchema),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page'),
  total: z.number().int().min(0).describe('Relations of the issue, over all pages'),
});

/** A relation as stored once, what its events carry: `sourceId` <type> `targetId`. */
export const storedRelationSchema = z.strictObject({
  ...versionedFields('rel'),
  type: z.enum(storedRelationTypes),
  sourceId: idOf('iss'),
  targetId: idOf('iss'),
  createdAt: timestampOut,
});
