import { readFileSync } from "node:fs";
import { validateXML } from "xmllint-wasm";
import { describe, expect, it } from "vitest";
import { metricNames, sampleRecords, summaryOf } from "../../test/support/records.js";
import { escapeXml, formatJUnitReport } from "./junit.js";

const schema = readFileSync(new URL("../../test/support/junit.xsd", import.meta.url), "utf8");

async function render(records = sampleRecords()): Promise<string> {
  const chunks: string[] = [];
  await formatJUnitReport({
    summary: summaryOf(records),
    metrics: metricNames,
    records,
    write: (chunk) => {
      chunks.push(chunk);
    },
    timestamp: "2026-11-21T10:00:00.000Z",
  });
  return chunks.join("");
}

describe("formatJUnitReport", () => {
  it("is valid against the JUnit schema, hostile text included", async () => {
    const xml = await render();
    const result = await validateXML({
      xml: [{ fileName: "report.xml", contents: xml }],
      schema: [{ fileName: "junit.xsd", contents: schema }],
    });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(xml).not.toContain("<script>");
    expect(xml).not.toContain("\u0001");
  });

  it("has one test per case and metric, with counts that add up", async () => {
    const xml = await render();
    const count = (pattern: RegExp) => (xml.match(pattern) ?? []).length;
    expect(count(/<testcase /g)).toBe(4 * metricNames.length);
    expect(count(/<failure /g)).toBe(1);
    expect(count(/<skipped /g)).toBe(1);
    // A metric that could not score, and both tests of the case that could not be read.
    expect(count(/<error /g)).toBe(3);
    expect(xml).toMatch(
      /<testsuite name="toolscore" tests="8" failures="1" errors="3" skipped="1"/,
    );
    expect(xml).toContain('timestamp="2026-11-21T10:00:00.000"');
    expect(xml).toContain("case-4 (line 4): line 4: not valid JSON");
  });

  it("counts in its header exactly what its body holds, cases a judge could not tell included", async () => {
    const records = [
      ...sampleRecords(),
      {
        index: 4,
        id: "unsure",
        line: 5,
        status: "not-evaluable" as const,
        metrics: {
          [metricNames[0]]: { status: "not-evaluable" as const, reason: "cannot tell" },
          [metricNames[1]]: { status: "not-evaluable" as const, reason: "samples disagreed" },
        },
        durationMs: 1,
      },
    ];
    const xml = await render(records);
    const count = (pattern: RegExp) => (xml.match(pattern) ?? []).length;
    const header =
      /<testsuite name="toolscore" tests="(\d+)" failures="(\d+)" errors="(\d+)" skipped="(\d+)"/
        .exec(xml)
        ?.slice(1)
        .map(Number);
    expect(header).toEqual([
      count(/<testcase /g),
      count(/<failure /g),
      count(/<error /g),
      count(/<skipped /g),
    ]);
    expect(count(/<skipped message="not evaluable: /g)).toBe(2);
  });

  it("catches a schema violation (the validator is not a rubber stamp)", async () => {
    const result = await validateXML({
      xml: [{ fileName: "bad.xml", contents: '<testsuites><testsuite tests="-1"/></testsuites>' }],
      schema: [{ fileName: "junit.xsd", contents: schema }],
    });
    expect(result.valid).toBe(false);
  });
});

describe("escapeXml", () => {
  it("escapes markup and replaces characters XML cannot hold", () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe(
      "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;",
    );
    expect(escapeXml("a\u0000b\u001fc\ud800d\tok\n")).toBe("a\ufffdb\ufffdc\ufffdd\tok\n");
    expect(escapeXml("😀")).toBe("😀");
  });
});
