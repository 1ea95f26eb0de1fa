export { COMPONENT_NAMES, DEFAULT_WEIGHTS, validateWeights } from "./weights.js";
export type { ComponentName, Weights } from "./weights.js";
export {
  CHEAP_GAS_GWEI,
  DEFAULT_SCORERS,
  scoreBasis,
  scoreFunding,
  scoreGas,
  scoreImbalance,
  scoreMomentum,
} from "./scorers.js";
export type { Scorer } from "./scorers.js";
