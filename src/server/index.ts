export { REPLAY_ROUTES, startReplayServer } from "./startReplayServer.js";
export type { ReplayServer, ReplayServerOptions } from "./startReplayServer.js";
export type { FaultOptions } from "./faults.js";
