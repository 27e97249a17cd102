/** A label of a workspace and how many of its issues carry it. */
export interface LabelCount {
  name: string;
  /** Issues carrying the label, archived ones included. */
  issueCount: number;
}

/** The labels of a workspace's issues: read from the issues' label index, never written directly. */
export interface LabelStore {
  /**
   * Up to `limit` labels carried by at least one issue of the workspace, in the order of their
   * names' code points (UTF-8 byte order), after the name `after` when given; with `total`, the
   * number of such labels. Concurrency contract: a label count reflects every issue write
   * committed before the transaction's snapshot, and the transaction's own writes.
   */
  list(query: { workspaceId: string; after?: string; limit: number }): Promise<{
    rows: LabelCount[];
    total: number;
  }>;
}
