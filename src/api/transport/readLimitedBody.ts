import { ResponseTooLargeError } from "../../errors/ResponseTooLargeError.js";

/**
 * Read a response body as raw bytes (one contiguous buffer, decoded by the
 * caller: once, and only if needed), refusing more than `maxBytes`: the
 * `Content-Length` header is checked first, then the streamed byte count (the
 * stream is cancelled as soon as the limit is passed).
 * @throws ResponseTooLargeError (with `safeUrl`, never the raw URL)
 */
export async function readLimitedBody(res: Response, maxBytes: number, safeUrl: string): Promise<{ body: Uint8Array; bytes: number }> {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(safeUrl, maxBytes, declared);
  }
  if (res.body === null) return { body: new Uint8Array(0), bytes: 0 };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new ResponseTooLargeError(safeUrl, maxBytes, bytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return { body: chunks[0] as Uint8Array, bytes };
  const all = new Uint8Array(bytes);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return { body: all, bytes };
}
