export { toDataFrame } from "./toDataFrame.js";
export type { Columns } from "./toDataFrame.js";
export type { DataFrame } from "./danfo.js";
