/**
 * A response body a handler has already serialised (for large bodies where
 * building the text directly is much cheaper than `JSON.stringify` of a tree
 * of objects). The server sends `json` as it is; it must be exactly the text
 * `JSON.stringify` would give for the value it stands for.
 */
export class PreparedJson {
  constructor(readonly json: string) {}
}
