// Wire shapes every endpoint family shares (docs/api.md).

/** What every command answers: the stream id, its new version and the log position. */
export interface CommandAnswer {
  id: string;
  version: number;
  position: number;
}

/** One page of a paged list. */
export interface Page<T> {
  records: T[];
  total: number;
}
