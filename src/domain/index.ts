export { COINS, isCoin, parseCoin } from "./coins.js";
export type { Coin } from "./coins.js";
