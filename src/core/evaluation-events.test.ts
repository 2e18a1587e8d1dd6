import { describe, expect, it } from "vitest";
import { otlpId, otlpSpan } from "./evaluation-events.js";

describe("otlpId (issue 48, item 8)", () => {
  it("takes OpenTelemetry's hex ids, lower case, and an Agents SDK's own", () => {
    expect(otlpId("5B8EFFF798038103D269B633813FC60C", "trace")).toBe(
      "5b8efff798038103d269b633813fc60c",
    );
    expect(otlpId("0xd000000000000003", "span")).toBe("d000000000000003");
    expect(otlpId("trace_1", "trace")).toBe("trace_1");
    expect(otlpId("span_0a1b", "span")).toBe("span_0a1b");
  });

  it("refuses what no collector takes: empty, all zero, the wrong length, other characters", () => {
    for (const [id, kind] of [
      ["", "trace"],
      ["0".repeat(32), "trace"],
      ["d00000000000003", "span"],
      ["5b8efff798038103\n269b633813fc60c", "trace"],
      ["a".repeat(100_000), "trace"],
      ["span_1", "trace"],
      ["trace_\u202e", "trace"],
    ] as const) {
      expect(otlpId(id, kind), JSON.stringify(id.slice(0, 40))).toBeUndefined();
    }
    expect(otlpSpan({ traceId: "trace_1", spanId: "" })).toBeUndefined();
  });
});
