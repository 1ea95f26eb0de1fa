/**
 * The names of a recording's files, the one rule the recorder and compaction
 * share (recordingLine.ts): the file a response goes to (recordingPath), the
 * days a name stands for (recordingFileDays) and the name of a compaction's
 * kept file (keptFileName). Expected values written by hand from the rule.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { keptFileName, recordingFileDays, recordingPath } from "../../src/load/recordingLine.js";

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 27, 12);

describe("recording file names", () => {
  it("recordingPath: today and yesterday go to the day file, older responses to a late file named after today", () => {
    expect(recordingPath("rec", "composite", NOW, NOW)).toBe(join("rec", "composite", "2026-11-27.jsonl"));
    expect(recordingPath("rec", "composite", NOW - DAY, NOW)).toBe(join("rec", "composite", "2026-11-26.jsonl"));
    expect(recordingPath("rec", "composite", NOW - 2 * DAY, NOW)).toBe(join("rec", "composite", "2026-11-25.late-2026-11-27.jsonl"));
  });

  it("recordingFileDays: day files, late files and kept files; undefined for other names", () => {
    expect(recordingFileDays("2026-11-25.jsonl")).toEqual({ day: "2026-11-25", appended: "2026-11-25" });
    expect(recordingFileDays("2026-11-25.late-2026-11-27.jsonl")).toEqual({ day: "2026-11-25", appended: "2026-11-27" });
    expect(recordingFileDays("2026-11-25.kept-4242-a1b2.jsonl")).toEqual({ day: "2026-11-25", appended: "2026-11-25" });
    expect(recordingFileDays("2026-11-25.late-2026-11-27.kept-4242-a1b2.jsonl")).toEqual({ day: "2026-11-25", appended: "2026-11-27" });
    for (const bad of [".compacting-12-2026-11-25.jsonl", "2026-11-25.json", "2026-11-25.kept-.jsonl", "2026-11-25.kept-A!.jsonl", "notes.jsonl", ""]) {
      expect(recordingFileDays(bad)).toBeUndefined();
    }
  });

  it("keptFileName: the source's days kept, a kept file's own id replaced, never a name the recorder writes", () => {
    expect(keptFileName("2026-11-25.jsonl", "7-ff")).toBe("2026-11-25.kept-7-ff.jsonl");
    expect(keptFileName("2026-11-25.late-2026-11-27.jsonl", "7-ff")).toBe("2026-11-25.late-2026-11-27.kept-7-ff.jsonl");
    expect(keptFileName("2026-11-25.kept-1-aa.jsonl", "7-ff")).toBe("2026-11-25.kept-7-ff.jsonl");
    for (const name of ["2026-11-25.jsonl", "2026-11-25.late-2026-11-27.jsonl"]) {
      const kept = keptFileName(name, "9-0c");
      expect(recordingFileDays(kept)).toEqual(recordingFileDays(name));
      expect([recordingPath("", "", Date.UTC(2026, 10, 25), NOW), recordingPath("", "", Date.UTC(2026, 10, 25), Date.UTC(2026, 10, 25))].map((p) => p.split("/").pop())).not.toContain(kept);
    }
  });
});
