import { readSync } from "node:fs";

/**
 * An open file as the Blob that parquet-wasm's `ParquetFile.fromFile` reads:
 * `size`, and `slice(start, end).arrayBuffer()` reading that byte range with
 * one positioned read. parquet-wasm then fetches only the footer and the
 * column chunks it is asked for, so its WebAssembly memory holds one column's
 * bytes at a time instead of a copy of the whole file (a 62 MB file grew it to
 * 240 MB; every fresh page costs a page fault on the first call). The file
 * descriptor must stay open until the last read is done.
 * @internal
 */
export function fileRanges(fd: number, size: number): Blob {
  const range = (start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> } => ({
    arrayBuffer: async () => {
      const from = Math.max(0, Math.min(start, size));
      const bytes = Buffer.allocUnsafeSlow(Math.max(0, Math.min(end, size) - from)); // unpooled: its ArrayBuffer is exactly the range
      let got = 0;
      for (let n = -1; got < bytes.length && n !== 0; got += n) n = readSync(fd, bytes, got, bytes.length - got, from + got);
      if (got < bytes.length) throw new Error(`the file ended at byte ${from + got}, before byte ${from + bytes.length}: it changed while it was read`);
      return bytes.buffer as ArrayBuffer;
    },
  });
  return { size, slice: range } as unknown as Blob;
}
