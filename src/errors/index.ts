export { MarketIntelError } from "./MarketIntelError.js";
export { InvalidArgumentError } from "./InvalidArgumentError.js";
