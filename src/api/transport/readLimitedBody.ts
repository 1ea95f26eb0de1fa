import { ResponseTooLargeError } from "../../errors/ResponseTooLargeError.js";

/**
 * Read a response body as UTF-8 text, refusing more than `maxBytes`: the
 * `Content-Length` header is checked first, then the streamed byte count (the
 * stream is cancelled as soon as the limit is passed).
 * @throws ResponseTooLargeError (with `safeUrl`, never the raw URL)
 */
export async function readLimitedBody(res: Response, maxBytes: number, safeUrl: string): Promise<{ text: string; bytes: number }> {
  const declared = Number(res.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw new ResponseTooLargeError(safeUrl, maxBytes, declared);
  }
  if (res.body === null) return { text: "", bytes: 0 };
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
  const all = new Uint8Array(bytes);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return { text: new TextDecoder().decode(all), bytes };
}
