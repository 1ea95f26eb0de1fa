/**
 * Whether two typed-array views share any byte of the same buffer: a column written while the
 * other is read would change what is read (the `into` checks of backtest and replayComposite).
 * @example sharesMemory(new Float64Array(4), new Float64Array(4)) // false
 * @example const b = new ArrayBuffer(32); sharesMemory(new Float64Array(b, 0, 2), new Int8Array(b, 8, 4)) // true
 * @internal
 */
export function sharesMemory(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return a.buffer === b.buffer && a.byteOffset < b.byteOffset + b.byteLength && b.byteOffset < a.byteOffset + a.byteLength;
}
