import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { makeImage } from "../../test/support/images.js";
import * as codec from "./image-codec.js";
import { inlineRecordImages } from "./inline-images.js";
import { loadImage } from "./load-image.js";

vi.mock("./image-codec.js", async (original) => {
  const actual = await original<typeof codec>();
  return { ...actual, bmpToPng: vi.fn(actual.bmpToPng), downscale: vi.fn(actual.downscale) };
});

/** Issue 34, item 7: an image that many cases name is decoded once in a run. */
describe("images decoded once", () => {
  it("converts a BMP named by 60 cases once, for a report and for the judge alike", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "toolscore-once-"));
    writeFileSync(path.join(folder, "shared.bmp"), await makeImage("bmp", 40, 30));
    const records = Array.from({ length: 60 }, (_, index) => ({
      index,
      id: `case-${index}`,
      status: "passed" as const,
      metrics: {},
      case: {
        input: [{ type: "image" as const, source: { kind: "path" as const, path: "shared.bmp" } }],
      },
      durationMs: 0,
    }));
    const inlined = await Promise.all(
      records.map((record) => inlineRecordImages(record, { baseDirectory: folder })),
    );
    for (const record of inlined) {
      expect(record.case?.input).toEqual([
        {
          type: "image",
          source: { kind: "base64", data: expect.any(String) as unknown, mimeType: "image/png" },
        },
      ]);
    }
    expect(vi.mocked(codec.bmpToPng)).toHaveBeenCalledTimes(1);
    // Other settings are another outcome: decoded again, once.
    for (let at = 0; at < 3; at++) {
      const loaded = await loadImage(
        { kind: "path", path: "shared.bmp" },
        { baseDirectory: folder, maxSide: 20, downscale: true },
      );
      expect(loaded).toMatchObject({ width: 20, height: 15, origin: "shared.bmp" });
    }
    expect(vi.mocked(codec.bmpToPng)).toHaveBeenCalledTimes(2);
    expect(vi.mocked(codec.downscale)).toHaveBeenCalledTimes(1);
  });
});
