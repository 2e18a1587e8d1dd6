import { describe, expect, it } from "vitest";
import { parseTrajectory } from "./parse-trajectory.js";
import { readCall } from "../../test/support/transcripts.js";

describe("bedrock", () => {
  it("reads JSON tool results and a Converse response", () => {
    const t = parseTrajectory([
      { role: "user", content: [{ text: "Top song on WZPZ?" }] },
      {
        role: "assistant",
        content: [
          { text: "Let me look." },
          { toolUse: { toolUseId: "tooluse_1", name: "top_song", input: { sign: "WZPZ" } } },
        ],
      },
      {
        role: "user",
        content: [
          {
            toolResult: {
              toolUseId: "tooluse_1",
              content: [{ json: { song: "Elemental Hotel", artist: "8 Storey Hike" } }],
            },
          },
        ],
      },
    ]);
    expect(t.calls).toEqual([
      readCall(
        "top_song",
        { sign: "WZPZ" },
        { song: "Elemental Hotel", artist: "8 Storey Hike" },
        { id: "tooluse_1", isError: false },
      ),
    ]);

    const response = parseTrajectory({
      output: {
        message: {
          role: "assistant",
          content: [
            { toolUse: { toolUseId: "tooluse_2", name: "top_song", input: { sign: "WKRP" } } },
          ],
        },
      },
      stopReason: "tool_use",
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    });
    expect(response.format).toBe("bedrock");
    expect(response.calls[0]).toMatchObject({ name: "top_song", id: "tooluse_2" });
  });

  it("warns about blocks it does not know", () => {
    const t = parseTrajectory([{ role: "assistant", content: [{ hologram: {} }] }], {
      format: "bedrock",
    });
    expect(t.warnings.map((w) => [w.code, w.path])).toEqual([["unknown-block", "$[0].content[0]"]]);
  });
});
