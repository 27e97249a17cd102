/**
 * Issues are found by label (`labels=`, `labelsAny=`) through a table of (workspace, label,
 * issue), which a list probes by its key or reads a label's issues from, whichever the planner
 * finds cheaper; `GET /labels` counts a workspace's labels from it (an index-only scan). Derived
 * from the issues' JSON and kept by triggers on every insert, update that changes the labels and
 * delete, in the writing transaction; a label an issue lists twice is one entry. Existing issues
 * are indexed here. Labels sort in byte order ("C"), as SQLite's and the memory adapter's do.
 * Frozen once released: the tables are listed here, not derived from the code.
 */
export const issueLabels = `
CREATE TABLE issue_labels (
  workspace_id text NOT NULL,
  label text COLLATE "C" NOT NULL,
  issue_pk bigint NOT NULL,
  PRIMARY KEY (workspace_id, label, issue_pk)
);
INSERT INTO issue_labels (workspace_id, label, issue_pk)
  SELECT DISTINCT issues.workspace_id, labels.label, issues.pk
  FROM issues, json_array_elements_text(issues.data::json -> 'labels') AS labels(label)
  ON CONFLICT DO NOTHING;
CREATE FUNCTION issue_labels_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM issue_labels WHERE workspace_id = OLD.workspace_id AND issue_pk = OLD.pk
      AND label IN (SELECT json_array_elements_text(OLD.data::json -> 'labels'));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO issue_labels (workspace_id, label, issue_pk)
      SELECT DISTINCT NEW.workspace_id, label, NEW.pk
      FROM json_array_elements_text(NEW.data::json -> 'labels') AS labels(label)
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER issues_labels_insert AFTER INSERT ON issues
  FOR EACH ROW WHEN (NEW.data::jsonb -> 'labels' <> '[]'::jsonb) EXECUTE FUNCTION issue_labels_follow();
CREATE TRIGGER issues_labels_update AFTER UPDATE ON issues
  FOR EACH ROW WHEN ((OLD.data::jsonb -> 'labels') IS DISTINCT FROM (NEW.data::jsonb -> 'labels'))
  EXECUTE FUNCTION issue_labels_follow();
CREATE TRIGGER issues_labels_delete AFTER DELETE ON issues
  FOR EACH ROW EXECUTE FUNCTION issue_labels_follow();
`;
