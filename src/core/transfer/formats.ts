import { type ForeignIssue, foreignSource } from './foreign.js';
import { githubIssues } from './formats/github.js';
import { jiraIssues } from './formats/jira.js';
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
    foreignSource(source, file, project, () => read(file, lines()));

/** A CSV header names these columns (quoted or not). */
const headerHas = (first: string, ...columns: string[]) =>
  columns.every((column) => new RegExp(`(^|,)"?${column}"?(,|$)`).test(first.replace(/^\uFEFF/, '')));

const definitions = {
  jsonl: {
    sniff: (file, first) => file.endsWith('.jsonl') || first.includes('"outcome-tracker-export"'),
    needsProject: false,
    source: ({ file, lines }) => jsonlSource(file, lines),
  },
  github: {
    sniff: (file, first) => file.endsWith('.json') || first.trimStart().startsWith('['),
    needsProject: true,
    source: issuesOf('github', githubIssues),
  },
  jira: {
    sniff: (_file, first) => headerHas(first, 'Summary', 'Issue key', 'Issue id'),
    needsProject: true,
    source: issuesOf('jira', jiraIssues),
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

/** The format of a file, told from its name and first line, or null when none fits. */
export function sniffFormat(file: string, firstLine: string): ImportFormat | null {
  return importFormats.find((format) => definitions[format].sniff(file, firstLine)) ?? null;
}

/** The import items of a file of this format. */
export const formatSource = (format: ImportFormat, input: SourceInput): ImportSource =>
  definitions[format].source(input);
