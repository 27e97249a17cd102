import type { z } from 'zod';
import { type ValidationIssue, validationFailed } from '../errors.js';

/** Parses `value` with a zod schema, or throws 400 validation_failed naming every bad field. */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  location: ValidationIssue['in'],
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationFailed(
    result.error.issues.flatMap((issue) => {
      const path = issue.path.map(String);
      // One entry per unknown field, each at its own path, so clients can point at the typo.
      if (issue.code === 'unrecognized_keys') {
        return issue.keys.map((key) => ({
          in: location,
          path: [...path, key].join('.'),
          message: 'unknown field',
        }));
      }
      return [{ in: location, path: path.join('.'), message: issue.message }];
    }),
  );
}
