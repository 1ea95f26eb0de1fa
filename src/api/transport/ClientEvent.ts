/**
 * What the client reports to `onEvent` (for logging and progress bars).
 * URLs are redacted and no event ever carries the API key or headers.
 */
export type ClientEvent =
  | { type: "request"; url: string; attempt: number }
  | { type: "response"; url: string; status: number; bytes: number; durationMs: number }
  | { type: "failure"; url: string; attempt: number; code: string; status?: number; message: string }
  | { type: "retry"; url: string; attempt: number; delayMs: number; reason: string }
  | { type: "cache-hit"; url: string }
  | { type: "dedupe"; url: string }
  | { type: "rate-limit-wait"; url: string }
  | { type: "truncated"; url: string; pages: number }
  /** A warning: the service gave less than asked (a clamped range, missing bars, a partial last bar); `message` says what. */
  | { type: "coverage"; url: string; message: string };
