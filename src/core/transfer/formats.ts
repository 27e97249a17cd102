import { jsonlSource, type NumberedLine } from './import-jsonl.js';
import type { ImportSource } from './import-run.js';

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

const definitions = {
  jsonl: {
    sniff: (file, first) => file.endsWith('.jsonl') || first.includes('"outcome-tracker-export"'),
    needsProject: false,
    source: ({ file, lines }) => jsonlSource(file, lines),
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
