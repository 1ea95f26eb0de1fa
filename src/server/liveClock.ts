import { InvalidArgumentError } from "../errors/InvalidArgumentError.js";

/** Options of {@link liveClock}. */
export interface LiveClockOptions {
  /** Simulated epoch ms at the start (floored to the minute). */
  readonly start: number;
  /** Simulated time one step moves, ms (60 000: a one-minute bar; 3 600 000: an hour) [60 000]. */
  readonly stepMs?: number;
  /** Real ms per step while running (50: a bar every 50 ms; equal to stepMs: real time); undefined: moves only on `advance` [undefined]. */
  readonly everyMs?: number;
  /** Real clock [Date.now]. */
  readonly realClock?: () => number;
}

/** A replay server's clock in live mode: pass `now` as startReplayServer's `clock`. */
export interface LiveClock {
  /** The simulated "now", epoch ms: start + steps x stepMs. */
  readonly now: () => number;
  /** Steps taken so far. */
  readonly steps: () => number;
  /** Move on by `steps` steps now (on demand) [1]. */
  advance(steps?: number): void;
  /** Stop moving on its own (advance still works). */
  pause(): void;
  /** Move on its own again, everyMs per step. */
  resume(): void;
}

/**
 * A clock for the replay server's live mode: simulated time that advances in real time, faster
 * (one step every `everyMs` real ms), or only on demand (`advance`). The server serves the bars
 * up to its clock, so new bars appear as it moves, and everything else (rate limit, fault
 * injection) works as with any clock.
 * @throws InvalidArgumentError on a start that is not finite, a step or pace that is not > 0
 * @example
 * const live = liveClock({ start: Date.UTC(2026, 10, 1), everyMs: 50 }); // a one-minute bar every 50 ms
 * const server = await startReplayServer({ clock: live.now, rateLimitPerMinute: 0 });
 */
export function liveClock(options: LiveClockOptions): LiveClock {
  const where = "liveClock";
  if (typeof options !== "object" || options === null) throw new InvalidArgumentError("options", `${where}: options must be an object like { start, everyMs }, got ${String(options)}`);
  const start = Math.floor(options.start / 60_000) * 60_000;
  if (!Number.isFinite(start)) throw new InvalidArgumentError("start", `${where}: start must be a finite epoch ms, got ${String(options.start)}`);
  const stepMs = options.stepMs ?? 60_000;
  if (!(stepMs > 0) || !Number.isFinite(stepMs)) throw new InvalidArgumentError("stepMs", `${where}: stepMs must be a duration > 0 in ms, got ${String(stepMs)}`);
  const everyMs = options.everyMs;
  if (everyMs !== undefined && !(everyMs > 0 && Number.isFinite(everyMs))) throw new InvalidArgumentError("everyMs", `${where}: everyMs must be a duration > 0 in ms (or omitted: on demand only), got ${String(everyMs)}`);
  const real = options.realClock ?? Date.now;
  let manual = 0;
  let ran = 0; // steps taken on its own before the last pause
  let since: number | undefined = everyMs === undefined ? undefined : real();
  const own = (): number => ran + (since === undefined || everyMs === undefined ? 0 : Math.floor((real() - since) / everyMs));
  const steps = (): number => manual + own();
  return {
    now: () => start + steps() * stepMs,
    steps,
    advance(n = 1) {
      if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("steps", `${where}: advance takes a whole number of steps >= 0, got ${String(n)}`);
      manual += n;
    },
    pause() {
      ran = own();
      since = undefined;
    },
    resume() {
      if (everyMs !== undefined && since === undefined) since = real();
    },
  };
}
