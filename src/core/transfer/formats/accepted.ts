/**
 * The files `import` reads and how to get each, for the messages that refuse a file of another
 * shape: someone holding the wrong file learns which one to make instead.
 */
export const acceptedFiles: readonly string[] = [
  'jsonl: an export of this tracker (outcome-tracker export)',
  'github: GitHub issues as its REST API lists them (gh api "repos/OWNER/REPO/issues?state=all" --paginate > issues.json)',
  'jira: Jira: Filters → Export → CSV (all fields), or the /rest/api/3/search JSON',
  'linear: Linear: Settings → Import / Export → Export CSV',
  'csv: a CSV file with id and title columns (docs/import.md)',
];

/** One line naming every accepted file, for the end of a message. */
export const acceptedFilesText = `accepted files: ${acceptedFiles.join('; ')}`;
