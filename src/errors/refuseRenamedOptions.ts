import { InvalidArgumentError } from "./InvalidArgumentError.js";

/**
 * Refuse options that were renamed in 0.2 (one word per concept: a clock is
 * `clock`, durations end in `Ms`), so old code fails loudly with the new name
 * instead of having the option silently ignored.
 * @param renamed old name -> new name, and how the value changes if it does
 * @throws InvalidArgumentError naming the old option, its new name and the function
 * @example refuseRenamedOptions({ now: Date.now }, "createClient", { now: "clock" }) // throws: createClient: option "now" is now "clock"
 * @internal
 */
export function refuseRenamedOptions(options: object | undefined, where: string, renamed: Readonly<Record<string, string>>): void {
  if (options === undefined || options === null) return;
  for (const [old, replacement] of Object.entries(renamed)) {
    if (Object.prototype.hasOwnProperty.call(options, old)) {
      throw new InvalidArgumentError(old, `${where}: option "${old}" is now ${replacement}`);
    }
  }
}
