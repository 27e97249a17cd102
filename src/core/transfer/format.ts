/**
 * The export file: JSON Lines, one JSON object a line (docs/export.md).
 *
 * line 1      the header: `{ "format": "outcome-tracker-export", "version": 1, "workspace", "exportedAt" }`
 * then        one record a line: `{ "family": "<name>", "record": { … } }`, families in the order of
 *             `transferFamilies` (referenced records before the records that name them)
 * last line   the trailer: `{ "end": true, "counts": { "<family>": n, … } }`, so a truncated file
 *             is told from a complete one.
 */

/** What the header's `format` says: this project's export and nothing else. */
export const exportFormatName = 'outcome-tracker-export';

/**
 * The version of the format. A reader accepts files of its version and older ones it still
 * understands; a new family or a new field in a record is not a new version (readers ignore
 * families they do not know, as the importer reports them), a changed meaning is.
 */
export const exportFormatVersion = 1;

export interface ExportHeader {
  format: typeof exportFormatName;
  version: number;
  workspace: { slug: string; name: string };
  exportedAt: string;
}

export interface ExportRecordLine {
  family: string;
  record: Record<string, unknown>;
}

export interface ExportTrailer {
  end: true;
  counts: Record<string, number>;
}
