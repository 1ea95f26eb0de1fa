/** A UTC calendar date: year, month 1..12, day 1..31. */
export interface UtcCalendarDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const DAY_MS = 86_400_000;

/**
 * The UTC calendar date of an epoch-ms time, by integer arithmetic (the inverse
 * of daysFromCivil: H. Hinnant, "chrono-Compatible Low-Level Date Algorithms",
 * civil_from_days), so it never depends on the machine's time zone and needs no
 * Date object. Valid for the whole proleptic Gregorian calendar.
 * @throws nothing: a non-finite time gives NaN fields
 * @example utcCalendarDate(Date.UTC(2024, 1, 29, 23, 59)) // { year: 2024, month: 2, day: 29 }
 */
export function utcCalendarDate(ms: number): UtcCalendarDate {
  if (!Number.isFinite(ms)) return { year: Number.NaN, month: Number.NaN, day: Number.NaN };
  const z = Math.floor(ms / DAY_MS) + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097; // [0, 146096]
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365); // [0, 399]
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100)); // [0, 365]
  const mp = Math.floor((5 * doy + 2) / 153); // [0, 11], March-based
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return { year, month, day };
}
