import { duck, lit } from "../test/store/helpers/duckdb.js";
import { loadCodecs } from "../src/store/codecs.js";
import { readFileSync } from "node:fs";
const path = "/tmp/sc/hostile.parquet";
await duck(`copy (select make_timestamptz(2026,11,1,0,i,0) as time, '100' as price, 100.25::decimal(10,2) as d, (-100.25)::decimal(5,2) as d5, 123456789012345678.1234567891::decimal(38,10) as d38, 18446744073709551615::ubigint as u64, 9007199254740993::bigint as big, 1.5::float as f from range(2) t(i)) to ${lit(path)} (format parquet)`);
const c = await loadCodecs();
const bytes = readFileSync(path);
const ffi = c.pq.readParquet(bytes, {}).intoFFI();
const table = c.ffi.parseTable(c.pq.wasmMemory().buffer, ffi.arrayAddrs(), ffi.schemaAddr(), false);
for (const f of table.schema.fields) {
  const d = table.getChild(f.name)!.data[0]!;
  console.log(f.name, String(f.type), f.type.typeId, (f.type as any).bitWidth, (f.type as any).scale, (f.type as any).precision, d.values?.constructor?.name, d.values?.length, d.stride);
}
console.log(await duck(`select * from parquet_schema(${lit(path)})`));
