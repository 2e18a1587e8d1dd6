import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shortenOutput } from "./shorten-output.js";

describe("shortenOutput", () => {
  it("gives an output that fits as it is", () => {
    expect(shortenOutput("18°C, light rain", 100)).toBe("18°C, light rain");
    expect(shortenOutput({ total: 30 }, 100)).toBe('{"total":30}');
  });

  it("keeps the total after a long list of items, every key kept", () => {
    const order = {
      id: "4521",
      items: Array.from({ length: 400 }, (_, at) => ({ sku: `sku-${at}`, price: 1 + at })),
      currency: "EUR",
      total: 80_200,
    };
    for (const output of [order, JSON.stringify(order)]) {
      const shown = shortenOutput(output, 4000);
      expect(shown.length).toBeLessThanOrEqual(4000);
      const read = JSON.parse(shown) as { items: unknown[]; total: number; currency: string };
      expect(read).toMatchObject({ id: "4521", currency: "EUR", total: 80_200 });
      // The first and last items, with how many were cut between them.
      expect(read.items[0]).toEqual({ sku: "sku-0", price: 1 });
      expect(read.items.at(-1)).toEqual({ sku: "sku-399", price: 400 });
      expect(read.items).toContain(`… ${400 - read.items.length + 1} items cut …`);
    }
  });

  it("shortens long strings in the middle, keys kept", () => {
    const shown = shortenOutput({ body: `${"a".repeat(5000)}END`, status: "sent" }, 1000);
    const read = JSON.parse(shown) as { body: string; status: string };
    expect(read.status).toBe("sent");
    expect(read.body.startsWith("aaa")).toBe(true);
    expect(read.body.endsWith("END")).toBe(true);
    expect(read.body).toMatch(/… \(\d+ characters cut\) …/);
  });

  it("cuts plain text in the middle, saying how much, the end kept", () => {
    const text = `${"line of log\n".repeat(1000)}TOTAL 42`;
    const shown = shortenOutput(text, 500);
    expect(shown.length).toBeLessThanOrEqual(500);
    expect(shown.startsWith("line of log")).toBe(true);
    expect(shown.endsWith("TOTAL 42")).toBe(true);
    const cut = Number(/\((\d+) characters cut\)/.exec(shown)?.[1]);
    expect(shown.length - ` … (${cut} characters cut) … `.length + cut).toBe(text.length);
  });

  it("never gives more than the bound, whatever the value", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.integer({ min: 60, max: 400 }), (value, max) => {
        const shown = shortenOutput(value, max);
        expect(shown.length).toBeLessThanOrEqual(max);
        // What fits is shown whole (text as it is, any other value as JSON).
        const whole = typeof value === "string" ? value : JSON.stringify(value);
        if (whole.length <= max) expect(shown).toBe(whole);
      }),
    );
  });
});
