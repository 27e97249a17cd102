import type { z } from 'zod';
import type { ImportProblem } from '../import-run.js';
import type { ArrayElement } from './json-array.js';

/**
 * The elements of a foreign JSON file its schema accepts, each with the line it starts on; in the
 * place of one that is not JSON or not of the schema, its problem (the schema's first issue).
 */
export async function* checkedElements<T>(
  file: string,
  elements: AsyncIterable<ArrayElement>,
  schema: z.ZodType<T>,
): AsyncIterable<{ line: number; value: T } | ImportProblem> {
  for await (const element of elements) {
    if ('error' in element) {
      yield { file, line: element.line, field: null, message: element.error };
      continue;
    }
    const parsed = schema.safeParse(element.value);
    if (parsed.success) {
      yield { line: element.line, value: parsed.data };
      continue;
    }
    const issue = parsed.error.issues[0];
    yield {
      file,
      line: element.line,
      field: issue?.path.map(String).join('.') || null,
      message: issue?.message ?? 'invalid',
    };
  }
}
