import type { z } from 'zod';
import type { Family } from '../families/family.js';
import { families } from '../families/index.js';
import { dateOut, timestampOut } from '../families/shared/schema.js';
import { eventPayloadSchemas } from './events.js';
import { problemSchema } from './problem.js';

const list: readonly Family[] = families;

/**
 * The names under which the zod schemas appear in `components.schemas`: the shared ones, then each
 * family's (its `schemas`), then the event payloads. Every response and request body schema of the
 * route table must be named: the generator refuses anonymous ones, so generated clients get
 * readable type names.
 */
export const responseComponents: Record<string, z.ZodType> = {
  Timestamp: timestampOut,
  CalendarDate: dateOut,
  Problem: problemSchema,
  ...Object.assign({}, ...list.map((family) => family.schemas?.responses ?? {})),
  ...eventPayloadSchemas,
};

/** Request bodies, converted as the input the API accepts (`io: 'input'`). */
export const requestComponents: Record<string, z.ZodType> = Object.assign(
  {},
  ...list.map((family) => family.schemas?.requests ?? {}),
);
