/**
 * Wait before retry number `attempt` (1 = first retry): exponential backoff
 * `baseMs * 2^(attempt-1)` with jitter, a uniform factor in [0.5, 1.5) drawn
 * from `random()`, capped at `maxMs`. Jitter spreads the retries of many
 * notebooks that failed together ("Exponential Backoff And Jitter",
 * AWS Architecture Blog, 2015).
 * @example backoffDelay(3, 500, 30_000, () => 0.5) // 2000
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const raw = baseMs * 2 ** Math.max(0, attempt - 1) * (0.5 + random());
  return Math.min(maxMs, Math.round(raw));
}
