import { describe, expect, it } from "vitest";
import type { PreparedContext } from "../core/context.js";
import {
  claimsScore,
  contextParts,
  faithfulnessRequest,
  readClaims,
  unjudgeableContexts,
} from "./faithfulness.js";

const text: PreparedContext = { index: 0, kind: "text", text: "Teslas are electric." };
const image: PreparedContext = {
  index: 1,
  kind: "image",
  origin: "tesla.jpg",
  status: "loaded",
  image: { mediaType: "image/jpeg", base64: "/9j/AAAA", width: 2, height: 2 },
};
const failed: PreparedContext = {
  index: 2,
  kind: "image",
  origin: "missing.jpg",
  status: "failed",
  error: { code: "MEDIA_LOAD", reason: "not-found", message: "missing.jpg: no such file" },
};

describe("contextParts", () => {
  it("numbers texts and images in order, each image after its label", () => {
    expect(contextParts([text, image])).toEqual([
      { type: "text", text: "Context 1 (text):\n```\nTeslas are electric.\n```" },
      { type: "text", text: "Context 2 (image):" },
      { type: "image", source: { kind: "base64", data: "/9j/AAAA", mimeType: "image/jpeg" } },
    ]);
  });

  it("refuses an image that did not load, instead of sending its name", () => {
    expect(() => contextParts([text, failed])).toThrow(
      /context 2 \(missing\.jpg\) is an image that did not load/,
    );
    expect(unjudgeableContexts([text, image, failed])).toEqual([failed]);
  });

  it("refuses an empty response or no contexts", () => {
    expect(() => faithfulnessRequest("", [text])).toThrow(/empty/);
    expect(() => faithfulnessRequest("x", [])).toThrow(/no contexts/);
  });
});

describe("readClaims and claimsScore", () => {
  const read = readClaims([text, image]);
  it("maps context numbers to contexts", () => {
    expect(
      read({ claims: [{ claim: "c", verdict: "supported", contexts: [2, 1], reason: "r" }] }),
    ).toEqual([
      {
        claim: "c",
        verdict: "supported",
        contexts: [
          { index: 1, kind: "image" },
          { index: 0, kind: "text" },
        ],
        reason: "r",
      },
    ]);
  });

  it("refuses citations of contexts that do not exist, and verdicts without any", () => {
    expect(
      read({ claims: [{ claim: "c", verdict: "supported", contexts: [0], reason: "r" }] }),
    ).toMatch(/cites context 0/);
    expect(
      read({ claims: [{ claim: "c", verdict: "contradicted", contexts: [], reason: "r" }] }),
    ).toMatch(/cites no context/);
  });

  it("scores supported over all, and a claimless response 1", () => {
    const claim = (verdict: "supported" | "contradicted" | "unsupported") => ({
      claim: "c",
      verdict,
      contexts: [],
      reason: "",
    });
    expect(
      claimsScore([claim("supported"), claim("unsupported"), claim("contradicted")]),
    ).toBeCloseTo(1 / 3, 12);
    expect(claimsScore([])).toBe(1);
  });
});
