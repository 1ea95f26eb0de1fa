/**
 * What one public option is: its unit and default, as the option table of docs/api.md shows
 * them, and the scale its number is read in, from which {@link checkOptions} refuses a value
 * given in the wrong scale (a percent where a fraction is meant, a fraction where basis points
 * are meant) with the value probably meant.
 */
export interface OptionSpec {
  /** What the value is measured in, e.g. "fraction of the entry price (0.03 = 3%)", "bps", "bars". */
  readonly unit: string;
  /** The value used when the option is unset (undefined or null), as text, e.g. "10 000", "none". */
  readonly default: string;
  /**
   * The scale of a number (or of each number of a list):
   * - `"fraction"`: a value above `max` (or at it, when `maxExclusive`) and at most 100 reads as
   *   a percent and is refused with value / 100;
   * - `"bps"`: a value in (0, 0.01) reads as a fraction and is refused with value x 10 000;
   * - `"ms"`: a duration in (0, 1000) reads as seconds and is refused with value x 1000.
   */
  readonly scale?: "fraction" | "bps" | "ms";
  /** Largest fraction of a `"fraction"` option (default 1). */
  readonly max?: number;
  readonly maxExclusive?: boolean;
}

/** The options one public function takes, by name: every key it knows, each described once. */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;
