export { formatNumber, textTable } from "./textTable.js";
export type { TableColumns, TextTableOptions } from "./textTable.js";
