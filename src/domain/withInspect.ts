import { inspect } from "node:util";

/**
 * Give a result its printed form: a non-enumerable `util.inspect.custom`
 * method returning `text()`, which `console.log` (and so a tslab cell's last
 * value) prints instead of every field. The fields, spreading and JSON are
 * unchanged. The one way the library's results and display objects print
 * themselves; `text` runs at print time only, so it must stay cheap (read what
 * the result holds, at most one pass). Returns the same object. @internal
 * @example withInspect({ a: 1 }, () => "A: 1") // console.log prints "A: 1"
 */
export function withInspect<T extends object>(target: T, text: () => string): T {
  Object.defineProperty(target, inspect.custom, { value: text, enumerable: false, configurable: true });
  return target;
}
