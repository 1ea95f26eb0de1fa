export { writeParquet } from "./writeParquet.js";
export type { WriteParquetOptions } from "./writeParquet.js";
export { readParquet } from "./readParquet.js";
export type { ReadParquetOptions } from "./readParquet.js";
export type { TableInput } from "./tableColumns.js";
export type { TimeInput } from "./timeBound.js";
