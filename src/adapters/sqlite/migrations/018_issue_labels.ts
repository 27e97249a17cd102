/**
 * Migration 18: issues are found by label (`labels=`, `labelsAny=`) through a table of (workspace,
 * label, issue), and a workspace's labels are listed with their counts from a table of those
 * (`GET /labels`). Both are derived from the issues' JSON: an insert writes an issue's labels
 * itself (as it counts the row: migration 6), an update that changes them and a delete keep the
 * table by triggers, and the counts follow the table by triggers. A label an issue lists twice
 * is one entry. Existing issues are indexed here.
 * Frozen once released: the tables are listed here, not derived from the code.
 */
export const issueLabels = `
CREATE TABLE issue_labels (
  workspace_id TEXT NOT NULL,
  label TEXT NOT NULL,
  issue_pk INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, label, issue_pk)
) WITHOUT ROWID;
CREATE TABLE issue_label_counts (
  workspace_id TEXT NOT NULL,
  label TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, label)
) WITHOUT ROWID;
INSERT OR IGNORE INTO issue_labels (workspace_id, label, issue_pk)
  SELECT issues.workspace_id, labels.value, issues.pk FROM issues, json_each(issues.data, '$.labels') AS labels;
INSERT INTO issue_label_counts (workspace_id, label, n)
  SELECT workspace_id, label, COUNT(*) FROM issue_labels GROUP BY workspace_id, label;
CREATE TRIGGER issue_labels_count_insert AFTER INSERT ON issue_labels BEGIN
  INSERT INTO issue_label_counts (workspace_id, label, n) VALUES (new.workspace_id, new.label, 1)
    ON CONFLICT (workspace_id, label) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER issue_labels_count_delete AFTER DELETE ON issue_labels BEGIN
  UPDATE issue_label_counts SET n = n - 1 WHERE workspace_id = old.workspace_id AND label = old.label;
  DELETE FROM issue_label_counts WHERE workspace_id = old.workspace_id AND label = old.label AND n = 0;
END;
CREATE TRIGGER issues_labels_update AFTER UPDATE OF data ON issues
  WHEN json_extract(old.data, '$.labels') IS NOT json_extract(new.data, '$.labels')
BEGIN
  DELETE FROM issue_labels WHERE workspace_id = old.workspace_id AND issue_pk = old.pk
    AND label IN (SELECT value FROM json_each(old.data, '$.labels'));
  INSERT OR IGNORE INTO issue_labels (workspace_id, label, issue_pk)
    SELECT new.workspace_id, value, new.pk FROM json_each(new.data, '$.labels');
END;
CREATE TRIGGER issues_labels_delete AFTER DELETE ON issues BEGIN
  DELETE FROM issue_labels WHERE workspace_id = old.workspace_id AND issue_pk = old.pk
    AND label IN (SELECT value FROM json_each(old.data, '$.labels'));
END;
`;
