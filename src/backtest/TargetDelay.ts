/**
 * Latency between a decision and its fill: the target decided at the close of bar i
 * reaches the market `delayBars` bars later, as if decided at the close of bar
 * i + delayBars (then filled there, or at the next open under fill "next_open").
 * The first `delayBars` bars get target 0 (nothing decided yet). Streams block by
 * block: the last `delayBars` decisions are carried between calls.
 * @example
 * const d = new TargetDelay(2);
 * const w = Float64Array.of(1, 1, 0, -1);
 * d.delayInto(w, 0, 4); // w = [0, 0, 1, 1]
 * @internal
 */
export class TargetDelay {
  private readonly ring: Float64Array;
  private at = 0;

  /** @param delayBars bars between decision and fill (an integer >= 1) */
  constructor(readonly delayBars: number) {
    this.ring = new Float64Array(delayBars);
  }

  /** Delay `buf[from .. to)` in place (decisions in, the targets to fill out). */
  delayInto(buf: Float64Array, from: number, to: number): void {
    const ring = this.ring;
    const d = this.delayBars;
    let at = this.at;
    for (let i = from; i < to; i++) {
      const x = buf[i] as number;
      buf[i] = ring[at] as number;
      ring[at] = x;
      at = at + 1 === d ? 0 : at + 1;
    }
    this.at = at;
  }
}
