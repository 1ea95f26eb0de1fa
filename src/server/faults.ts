import { createRng, type Rng } from "../sim/prng.js";

/** Fault injection for tests: each rate is a probability per request, drawn from a seeded generator. */
export interface FaultOptions {
  /** Added delay before every response, ms. */
  readonly latencyMs?: number;
  /** Probability of answering `errorStatus` (default 503). */
  readonly errorRate?: number;
  readonly errorStatus?: number;
  /** Probability of a 200 whose body is not JSON. */
  readonly malformedRate?: number;
  /** Probability of a 200 whose body is cut in half. */
  readonly truncateRate?: number;
  /** Probability of destroying the connection without an answer. */
  readonly resetRate?: number;
  readonly seed?: number;
}

/** What to do to one response. */
export type Fault =
  | { kind: "none" }
  | { kind: "status"; status: number }
  | { kind: "malformed" }
  | { kind: "truncate" }
  | { kind: "reset" }
  | { kind: "slow"; ms: number };

/** Decides faults: a per-request `X-Replay-Fault` header wins, else the seeded rates. */
export class FaultPlan {
  private readonly rng: Rng;

  constructor(private readonly options: FaultOptions = {}) {
    this.rng = createRng(options.seed ?? 1);
  }

  get latencyMs(): number {
    return this.options.latencyMs ?? 0;
  }

  /** The fault for a request with the given `X-Replay-Fault` header value. */
  decide(header: string | undefined): Fault {
    if (header !== undefined && header !== "") {
      const h = header.trim().toLowerCase();
      if (/^\d{3}$/.test(h)) return { kind: "status", status: Number(h) };
      if (h === "malformed" || h === "truncate" || h === "reset") return { kind: h };
      const slow = /^slow(?::(\d+))?$/.exec(h);
      if (slow) return { kind: "slow", ms: Number(slow[1] ?? 2000) };
    }
    const o = this.options;
    const u = this.rng.uniform();
    let edge = 0;
    if (u < (edge += o.errorRate ?? 0)) return { kind: "status", status: o.errorStatus ?? 503 };
    if (u < (edge += o.malformedRate ?? 0)) return { kind: "malformed" };
    if (u < (edge += o.truncateRate ?? 0)) return { kind: "truncate" };
    if (u < (edge += o.resetRate ?? 0)) return { kind: "reset" };
    return { kind: "none" };
  }
}
