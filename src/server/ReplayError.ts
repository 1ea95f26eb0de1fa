/** A request the replay server refuses, rendered as `{"error": {code, message}}` with `status`. */
export class ReplayError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ReplayError";
  }
}
