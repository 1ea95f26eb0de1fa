import { createRng, type Rng } from "../random/prng.js";

/**
 * Fault injection for tests. Giving `faults` to startReplayServer (even `{}`)
 * turns it on: the seeded rates below apply to every request, and a request
 * may ask for one fault with the `X-Replay-Fault` header (see {@link FaultPlan.decide}).
 * Without `faults` the header is ignored.
 */
export interface FaultOptions {
  /** Added delay before every response, ms (0..60 000) [0]. */
  readonly latencyMs?: number;
  /** Probability of answering `errorStatus` [0]. */
  readonly errorRate?: number;
  /** Status of the injected errors, 400..599 [503]. */
  readonly errorStatus?: number;
  /** Probability of a 200 whose body is not JSON [0]. */
  readonly malformedRate?: number;
  /** Probability of a 200 whose body is cut in half [0]. */
  readonly truncateRate?: number;
  /** Probability of destroying the connection without an answer [0]. */
  readonly resetRate?: number;
  /** Seed of the fault draws [1]. */
  readonly seed?: number;
}

/** What to do to one response. */
export type Fault =
  | { kind: "none" }
  | { kind: "status"; status: number; retryAfter: boolean }
  | { kind: "malformed" }
  | { kind: "truncate" }
  | { kind: "reset" }
  | { kind: "slow"; ms: number }
  | { kind: "slow-body"; ms: number }
  | { kind: "redirect"; to: "same-origin" | "loop" | "cross-origin" };

const REDIRECTS = { redirect: "same-origin", "redirect-loop": "loop", "redirect-cross": "cross-origin" } as const;

/** Decides faults: a per-request `X-Replay-Fault` header wins, else the seeded rates. */
export class FaultPlan {
  private readonly rng: Rng;

  constructor(private readonly options: FaultOptions = {}) {
    this.rng = createRng(options.seed ?? 1);
  }

  get latencyMs(): number {
    return this.options.latencyMs ?? 0;
  }

  /**
   * The fault for a request with the given `X-Replay-Fault` header value:
   * `NNN` (that status; 429 with `Retry-After: 1`), `429-no-retry-after`,
   * `malformed` (a 200 that is not JSON), `truncate` (half the announced
   * body, then the connection is cut), `reset` (no answer),
   * `slow[:ms]` (headers late, default 2000), `slow-body[:ms]` (headers at
   * once, the second half of the body late), `redirect` (one same-origin
   * hop), `redirect-loop` (302 to itself, forever), `redirect-cross` (302 to
   * the same server under another origin, `localhost` instead of the IP).
   */
  decide(header: string | undefined): Fault {
    if (header !== undefined && header !== "") {
      const h = header.trim().toLowerCase();
      if (/^\d{3}$/.test(h)) return { kind: "status", status: Number(h), retryAfter: h === "429" };
      if (h === "429-no-retry-after") return { kind: "status", status: 429, retryAfter: false };
      if (h === "malformed" || h === "truncate" || h === "reset") return { kind: h };
      if (h in REDIRECTS) return { kind: "redirect", to: REDIRECTS[h as keyof typeof REDIRECTS] };
      const slow = /^(slow|slow-body)(?::(\d+))?$/.exec(h);
      if (slow) return { kind: slow[1] as "slow" | "slow-body", ms: Number(slow[2] ?? 2000) };
    }
    const o = this.options;
    const u = this.rng.uniform();
    let edge = 0;
    if (u < (edge += o.errorRate ?? 0)) return { kind: "status", status: o.errorStatus ?? 503, retryAfter: (o.errorStatus ?? 503) === 429 };
    if (u < (edge += o.malformedRate ?? 0)) return { kind: "malformed" };
    if (u < (edge += o.truncateRate ?? 0)) return { kind: "truncate" };
    if (u < (edge += o.resetRate ?? 0)) return { kind: "reset" };
    return { kind: "none" };
  }
}
