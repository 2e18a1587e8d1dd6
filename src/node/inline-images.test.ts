import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeImage } from "../../test/support/images.js";
import type { CaseRecord } from "../core/case-record.js";
import { inlineRecordImages } from "./inline-images.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "toolscore-inline-"));
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe("inlineRecordImages", () => {
  it("embeds local images of input and contexts, keeps URLs, leaves unreadable paths named", async () => {
    writeFileSync(path.join(directory, "a.png"), await makeImage("png", 5, 4));
    const record: CaseRecord = {
      index: 0,
      id: "a",
      status: "passed",
      metrics: {},
      durationMs: 1,
      case: {
        input: [
          { type: "text", text: "look" },
          { type: "image", source: { kind: "path", path: "a.png" } },
        ],
        retrievedContexts: [
          "plain text",
          "a.png",
          "https://example.com/b.png",
          "missing.png",
          "../outside.png",
        ],
      },
    };
    const inlined = await inlineRecordImages(record, { baseDirectory: directory });
    const input = inlined.case?.input;
    expect(Array.isArray(input) && input[1]).toMatchObject({
      type: "image",
      source: { kind: "base64", mimeType: "image/png" },
    });
    expect(inlined.case?.retrievedContexts).toMatchObject([
      "plain text",
      { kind: "base64", mimeType: "image/png" },
      "https://example.com/b.png",
      "missing.png",
      "../outside.png",
    ]);
    expect(record.case?.retrievedContexts?.[1]).toBe("a.png");
  });
});
