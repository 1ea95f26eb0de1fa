export type { Trade } from "./Trade.js";
