/** Decimal number text: optional sign, digits with an optional fraction (or a fraction alone), optional exponent. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The one rule for reading a number from text (a CLI flag, a numeric string
 * in a response): decimal notation only, surrounding spaces ignored. What
 * JavaScript's Number() also takes but no user means as a number is refused
 * (NaN): hexadecimal `0x10`, binary `0b11`, octal `0o7`, `Infinity`, the
 * empty string, and `1_000`.
 * @returns the number, or NaN when the text is not a decimal number
 * @example decimalNumber(" 1.5e3 ") // 1500
 * @example decimalNumber("0x10") // NaN
 */
export function decimalNumber(text: string): number {
  const t = text.trim();
  return DECIMAL.test(t) ? Number(t) : Number.NaN;
}
