import { type ForeignIssue, foreignSource } from './foreign.js';
import { acceptedFiles } from './formats/accepted.js';
import { githubIssues } from './formats/github.js';
import { jiraIssues } from './formats/jira.js';
import { jiraJsonIssues } from './formats/jira-json.js';
import { linearIssues } from './formats/linear.js';
import { plainCsvIssues } from './formats/plain-csv.js';
import { jsonlSource, type NumberedLine } from './import-jsonl.js';
import type { ImportProblem, ImportSource } from './import-run.js';

/** Where a format's records go: the file's name, its lines, and the project issues go into. */
export interface SourceInput {
  file: string;
  lines: () => AsyncIterable<NumberedLine>;
  /** The key of the project issues of another tracker go into. */
  project?: string;
}

interface FormatDefinition {
  /** Whether the file is of this format, from its name and first line. */
  sniff(file: string, firstLine: string): boolean;
  /** Whether it imports into a project (`--project`). */
  needsProject: boolean;
  source(input: SourceInput): ImportSource;
}

/** A format of another tracker's issues: they go into the `--project` project. */
const issuesOf =
  (
    source: string,
    read: (file: string, lines: AsyncIterable<NumberedLine>) => AsyncIterable<ForeignIssue | ImportProblem>,
  ): FormatDefinition['source'] =>
  ({ file, lines, project }) =>
    foreignSource(source, file, project, () => read(file, plainLines(lines())));

/** A CSV header names these columns (quoted or not). */
const headerHas = (first: string, ...columns: string[]) =>
  columns.every((column) => new RegExp(`(^|,)"?${column}"?(,|$)`).test(first.replace(/^\uFEFF/, '')));

/** The first line without a byte order mark or leading white space. */
const opening = (first: string) => first.replace(/^\uFEFF/, '').trimStart();

/**
 * The file's lines as the formats read them: without the byte order mark some editors put first
 * (Excel writes one before a CSV), and without the carriage return of a CRLF line end, however
 * the lines were split.
 */
async function* plainLines(lines: AsyncIterable<NumberedLine>): AsyncIterable<NumberedLine> {
  for await (const { line, text } of lines) {
    const withoutMark = line === 1 ? text.replace(/^\uFEFF/, '') : text;
    yield { line, text: withoutMark.endsWith('\r') ? withoutMark.slice(0, -1) : withoutMark };
  }
}

/** Jira's CSV export, or its search answer (JSON), told by the file's first character. */
async function* jiraFile(
  file: string,
  lines: AsyncIterable<NumberedLine>,
): AsyncIterable<ForeignIssue | ImportProblem> {
  const buffered: NumberedLine[] = [];
  const iterator = lines[Symbol.asyncIterator]();
  let next = await iterator.next();
  // Blank lines before the first character are kept for the reader, so its line numbers hold.
  while (!next.done && next.value.text.trim() === '') {
    buffered.push(next.value);
    next = await iterator.next();
  }
  if (!next.done) buffered.push(next.value);
  const json = !next.done && next.value.text.trimStart().startsWith('{');
  async function* all(): AsyncIterable<NumberedLine> {
    try {
      yield* buffered;
      if (next.done) return;
      for (let step = await iterator.next(); !step.done; step = await iterator.next()) yield step.value;
    } finally {
      // A reader that stops early (a file of the wrong shape) closes the file too.
      await iterator.return?.();
    }
  }
  yield* json ? jiraJsonIssues(file, all()) : jiraIssues(file, all());
}

const definitions = {
  jsonl: {
    sniff: (file, first) => file.endsWith('.jsonl') || first.includes('"outcome-tracker-export"'),
    needsProject: false,
    source: ({ file, lines }) => jsonlSource(file, () => plainLines(lines())),
  },
  github: {
    // A JSON array; a `.json` file that starts with an object is Jira's search answer.
    sniff: (file, first) =>
      opening(first).startsWith('[') || (file.endsWith('.json') && !opening(first).startsWith('{')),
    needsProject: true,
    source: issuesOf('github', githubIssues),
  },
  jira: {
    sniff: (_file, first) =>
      headerHas(first, 'Summary', 'Issue key', 'Issue id') || opening(first).startsWith('{'),
    needsProject: true,
    source: issuesOf('jira', jiraFile),
  },
  linear: {
    sniff: (_file, first) => headerHas(first, 'ID', 'Team', 'Title'),
    needsProject: true,
    source: issuesOf('linear', linearIssues),
  },
  csv: {
    sniff: (file, first) => file.endsWith('.csv') && headerHas(first, 'id', 'title'),
    needsProject: true,
    source: issuesOf('csv', plainCsvIssues),
  },
} as const satisfies Record<string, FormatDefinition>;

export type ImportFormat = keyof typeof definitions;

/** Every format `import` reads, as `--format` names them. */
export const importFormats = Object.keys(definitions) as ImportFormat[];

export const formatNeedsProject = (format: ImportFormat): boolean => definitions[format].needsProject;

/** The files `import` reads, a line each: the format's name and how to get such a file. */
export const importFormatHelp: readonly string[] = acceptedFiles;

/** The format of a file, told from its name and first line, or null when none fits. */
export function sniffFormat(file: string, firstLine: string): ImportFormat | null {
  return importFormats.find((format) => definitions[format].sniff(file, firstLine)) ?? null;
}

/** The import items of a file of this format. */
export const formatSource = (format: ImportFormat, input: SourceInput): ImportSource =>
  definitions[format].source(input);
