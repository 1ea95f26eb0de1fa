/**
 * Escape text for HTML element content and attribute values (& < > " ').
 * @example escapeHtml('<b a="1">') // "&lt;b a=&quot;1&quot;&gt;"
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"));
}
