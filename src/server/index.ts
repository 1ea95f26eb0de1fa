/**
 * `market-intel-lab/server`: the replay server, a local HTTP implementation of
 * every endpoint of the Market Intelligence API fed by the seeded simulator
 * (`market-intel-lab/sim`, which says which library rules it borrows). For
 * offline notebooks, demos and transport tests; agreement with it is a round
 * trip, not evidence that a rule is right.
 */
export { REPLAY_ROUTES, startReplayServer } from "./startReplayServer.js";
export type { ReplayServer, ReplayServerOptions } from "./startReplayServer.js";
export type { FaultOptions } from "./faults.js";
export { liveClock, type LiveClock, type LiveClockOptions } from "./liveClock.js";
