import { redactSecrets } from "./redactSecrets.js";

const SECRET_PARAM = /^(api[-_]?key|apikey|key|token|access[-_]?token|secret|password|signature)$/i;

/**
 * The URL as it may appear in errors and events: query parameters whose name
 * looks like a credential (`api_key`, `token`, ...) have their value replaced
 * by `REDACTED`, and so does any occurrence of the extra `secrets` (the
 * client's API key). The client sends its key as a header, so this is a
 * second line of defence for keys a caller put in `params` by hand.
 * @example redactUrl("http://h/v1/x?coin=BTC&api_key=abc") // "http://h/v1/x?coin=BTC&api_key=REDACTED"
 */
export function redactUrl(url: string, secrets: readonly string[] = []): string {
  let out = url;
  const q = url.indexOf("?");
  if (q >= 0) {
    const params = new URLSearchParams(url.slice(q + 1));
    let changed = false;
    for (const name of [...params.keys()]) {
      if (SECRET_PARAM.test(name)) {
        params.set(name, "REDACTED");
        changed = true;
      }
    }
    if (changed) out = `${url.slice(0, q)}?${params.toString()}`;
  }
  return redactSecrets(out, secrets);
}
