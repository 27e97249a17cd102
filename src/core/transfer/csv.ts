import type { NumberedLine } from './import-jsonl.js';

/** One record of a CSV file: its cells, and the line it starts on (a quoted cell may span lines). */
export interface CsvRow {
  line: number;
  cells: string[];
}

/** A record whose quoted cell never closes: the file ends inside it. */
export class UnclosedQuote extends Error {
  constructor(readonly line: number) {
    super('a quoted cell is never closed');
  }
}

/**
 * Reads CSV (RFC 4180: comma-separated, cells quoted with `"` when they hold a comma, a quote or a
 * line break, a quote doubled inside them) from numbered lines, one record at a time: a quoted
 * cell may go on over several lines. A byte order mark at the start is dropped (Excel writes one).
 */
export async function* csvRows(lines: AsyncIterable<NumberedLine>): AsyncIterable<CsvRow> {
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let start = 0;
  let first = true;
  for await (const { line, text: raw } of lines) {
    const text = first ? raw.replace(/^\uFEFF/, '') : raw;
    first = false;
    if (!quoted) {
      start = line;
      if (text === '') continue;
    } else {
      cell += '\n';
    }
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quoted) {
        if (c !== '"') cell += c;
        else if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else if (c === '"' && cell === '') quoted = true;
      else if (c === ',') {
        cells.push(cell);
        cell = '';
      } else cell += c;
    }
    if (quoted) continue;
    cells.push(cell);
    yield { line: start, cells };
    cells = [];
    cell = '';
  }
  if (quoted) throw new UnclosedQuote(start);
}

/**
 * A CSV file's rows as objects by column name. A name the header repeats (Jira writes one `Labels`
 * column per label) gathers its cells, in order, under `all`.
 */
export interface CsvRecord {
  line: number;
  /** The first cell of each column, by name ('' when the row is short). */
  get(column: string): string;
  /** Every non-empty cell of the columns with this name. */
  all(column: string): string[];
}

export async function* csvRecords(
  lines: AsyncIterable<NumberedLine>,
): AsyncIterable<{ header: string[] } | CsvRecord> {
  let header: string[] | null = null;
  for await (const row of csvRows(lines)) {
    if (header === null) {
      header = row.cells.map((name) => name.trim());
      yield { header };
      continue;
    }
    const names = header;
    const { cells } = row;
    yield {
      line: row.line,
      get: (column) => cells[names.indexOf(column)] ?? '',
      all: (column) => names.flatMap((name, i) => (name === column && cells[i] ? [cells[i] as string] : [])),
    };
  }
}
