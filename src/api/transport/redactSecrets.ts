/**
 * `text` with every occurrence of each secret replaced by `REDACTED`, in the
 * forms it can take in a URL or a body: raw, percent-encoded and
 * form-encoded (space as `+`), and as it reads inside a JSON string (an
 * error quoting a value with JSON.stringify). Empty secrets are ignored.
 * @example redactSecrets("key=abc", ["abc"]) // "key=REDACTED"
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    const forms = new Set([secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2), JSON.stringify(secret).slice(1, -1)]);
    for (const form of forms) out = out.split(form).join("REDACTED");
  }
  return out;
}
