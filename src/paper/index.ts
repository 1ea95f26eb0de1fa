/** Paper trading: a strategy run bar by bar on the live feed, booked by the backtest engine, reconciled with the backtest. */
export { paperTrade, type PaperTradeOptions, type PaperTrader } from "./paperTrade.js";
export { historyFeed, storeFeed, type PaperFeed } from "./PaperFeed.js";
export { readLedger, type LedgerHeader, type LedgerRow, type PaperEvent } from "./PaperLedger.js";
export type { Reconciliation, LedgerDifference } from "./reconcileLedger.js";
export type { PaperStrategy, PaperCompositeStrategy, PaperBacktestOptions } from "./paperStrategy.js";
export type { BookedBar } from "./PaperAccount.js";
export type { MinuteSeries } from "./barsFromMinutes.js";
export type { PaperConformanceOptions, ConformanceLoss } from "./conformanceAlarm.js";
export { performanceBand, type PerformanceBand, type PerformanceBandOptions } from "./performanceBand.js";
