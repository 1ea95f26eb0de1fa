import { MarketIntelError } from "./MarketIntelError.js";

/**
 * A response body was larger than the client's `maxResponseBytes`, either as
 * announced by `Content-Length` or while it streamed in (the download stops
 * at the limit).
 * @example
 * createClient({ maxResponseBytes: 256 * 1024 * 1024 })
 */
export class ResponseTooLargeError extends MarketIntelError {
  /** Request URL (credentials never appear in it). */
  readonly url: string;
  /** The configured limit, in bytes. */
  readonly limitBytes: number;
  /** Bytes announced or received when the limit tripped, in bytes. */
  readonly receivedBytes: number;

  constructor(url: string, limitBytes: number, receivedBytes: number) {
    super(
      "RESPONSE_TOO_LARGE",
      `GET ${url} returned more than ${limitBytes} bytes (at least ${receivedBytes}): ask for a smaller window ` +
        `(fewer hours, a shorter start..end, a lower limit) or raise maxResponseBytes`,
    );
    this.url = url;
    this.limitBytes = limitBytes;
    this.receivedBytes = receivedBytes;
  }
}
