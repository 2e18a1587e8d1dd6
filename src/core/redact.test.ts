import { describe, expect, it } from "vitest";
import { createRedactor, redactCredentials } from "./redact.js";

/** Issue 34, item 9: no message toolscore writes shows a credential. */
describe("redact", () => {
  it("takes out what looks like a credential", () => {
    const cases: [string, string][] = [
      [
        "Incorrect API key provided: sk-proj-abcdefghijklmnopqrstuvwx1234.",
        "Incorrect API key provided: [redacted].",
      ],
      [
        "invalid x-api-key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-yz",
        "invalid x-api-key [redacted]",
      ],
      [
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig",
        "Authorization: Bearer [redacted]",
      ],
      ["aws AKIAIOSFODNN7EXAMPLE here", "aws [redacted] here"],
      ["token ghp_0123456789abcdefghijklmnopqrstuvwxyz", "token [redacted]"],
      [
        "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- after",
        "[redacted] after",
      ],
    ];
    for (const [text, expected] of cases) expect(redactCredentials(text), text).toBe(expected);
  });

  it("leaves ordinary text alone", () => {
    for (const text of [
      "The 1 expected call was made as expected (order: any; f1 1).",
      "expected[0] search_flights missing; called[0] book not expected",
      "sk-short and Bearer abc",
    ]) {
      expect(redactCredentials(text)).toBe(text);
    }
  });

  it("takes out the configured keys exactly, however they look, the longest first", () => {
    const redact = createRedactor(["gw-7f3a9c21d4e8b6a0", "gw-7f3a9c21", "short"]);
    expect(redact("key gw-7f3a9c21d4e8b6a0 refused; also gw-7f3a9c21 and short")).toBe(
      "key [redacted] refused; also [redacted] and short",
    );
    expect(createRedactor(["a.b*c(d)e+f"])("x a.b*c(d)e+f y")).toBe("x [redacted] y");
  });
});
