import { type CsvRecord, csvRecords, UnclosedQuote } from '../csv.js';
import type { ForeignIssue } from '../foreign.js';
import type { NumberedLine } from '../import-jsonl.js';
import type { ImportProblem } from '../import-run.js';

/** What a CSV format makes of one row: an issue, or the problem with one of its cells. */
export type RowMapper = (record: CsvRecord, file: string) => ForeignIssue | ImportProblem;

/** A problem with one cell of a row. */
export const cellProblem = (
  file: string,
  record: CsvRecord,
  column: string,
  message: string,
): ImportProblem => ({
  file,
  line: record.line,
  field: column,
  message,
});

/**
 * The issues of a CSV file whose header has the `required` columns, each row mapped by `map`.
 * A header without one of them is one problem, on line 1, and the rows are not read.
 */
export async function* csvIssues(
  file: string,
  lines: AsyncIterable<NumberedLine>,
  required: readonly string[],
  map: RowMapper,
): AsyncIterable<ForeignIssue | ImportProblem> {
  try {
    for await (const entry of csvRecords(lines)) {
      if ('header' in entry) {
        const missing = required.filter((column) => !entry.header.includes(column));
        if (missing.length > 0) {
          yield {
            file,
            line: 1,
            field: null,
            message: `the header has no ${missing.map((c) => `"${c}"`).join(', ')} column`,
          };
          return;
        }
        continue;
      }
      yield map(entry, file);
    }
  } catch (error) {
    if (!(error instanceof UnclosedQuote)) throw error;
    yield { file, line: error.line, field: null, message: `${error.message}: the file ends inside it` };
  }
}

/** The first of `names` the value matches (case and spaces aside), as its mapped value. */
export function mapName<T>(value: string, table: Readonly<Record<string, T>>): T | undefined {
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
  return table[key];
}

/** An email address in a cell, or null (a display name is not one). */
export const emailIn = (cell: string): string | null =>
  /^[^\s@]+@[^\s@]+$/.test(cell.trim()) ? cell.trim() : null;
