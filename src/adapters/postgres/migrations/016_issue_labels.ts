/**
 * Issues are found by label (`labels=`, `labelsAny=`) through a table of (workspace, label,
 * issue), which a list probes by its key or reads a label's issues from, whichever the planner
 * finds cheaper; `GET /labels` counts a workspace's labels from it (an index-only scan). Derived
 * from the issues' JSON and kept by triggers on every insert, update that changes the labels and
 * delete, in the writing transaction; a label an issue lists twice is one entry. Existing issues
 * are indexed here. Labels sort in byte order ("C"), as SQLite's and the memory adapter's do.
 *
 * The triggers decide from the text whether there is anything to do (an empty list, the same
 * list as before), so most writes parse nothing. A row whose labels PostgreSQL cannot read as
 * JSON (a lone surrogate, which the API refuses but the storage port stores) is left unindexed
 * rather than refused.
 * Frozen once released: the tables are listed here, not derived from the code.
 */
const labelsText = `'"labels":(\\[(?:"(?:[^"\\\\]|\\\\.)*",?)*\\])'`;

export const issueLabels = `
CREATE TABLE issue_labels (
  workspace_id text NOT NULL,
  label text COLLATE "C" NOT NULL,
  issue_pk bigint NOT NULL,
  PRIMARY KEY (workspace_id, label, issue_pk)
);
CREATE FUNCTION issue_labels_of(data text) RETURNS SETOF text LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN QUERY SELECT DISTINCT json_array_elements_text(data::json -> 'labels');
EXCEPTION WHEN OTHERS THEN
  RETURN;
END $$;
INSERT INTO issue_labels (workspace_id, label, issue_pk)
  SELECT issues.workspace_id, labels.label, issues.pk FROM issues, issue_labels_of(issues.data) AS labels(label)
  ON CONFLICT DO NOTHING;
CREATE FUNCTION issue_labels_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM issue_labels WHERE workspace_id = OLD.workspace_id AND issue_pk = OLD.pk
      AND label IN (SELECT issue_labels_of(OLD.data));
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO issue_labels (workspace_id, label, issue_pk)
      SELECT NEW.workspace_id, label, NEW.pk FROM issue_labels_of(NEW.data) AS labels(label)
      ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER issues_labels_insert AFTER INSERT ON issues
  FOR EACH ROW WHEN (strpos(NEW.data, '"labels":[]') = 0) EXECUTE FUNCTION issue_labels_follow();
CREATE TRIGGER issues_labels_update AFTER UPDATE ON issues
  FOR EACH ROW WHEN (substring(OLD.data from ${labelsText}) IS DISTINCT FROM substring(NEW.data from ${labelsText}))
  EXECUTE FUNCTION issue_labels_follow();
CREATE TRIGGER issues_labels_delete AFTER DELETE ON issues
  FOR EACH ROW WHEN (strpos(OLD.data, '"labels":[]') = 0) EXECUTE FUNCTION issue_labels_follow();
`;
