import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { DatasetCase } from "../adapters/dataset-case.js";
import { DatasetParseError, InvalidOptionError } from "../core/errors.js";
import { datasetFingerprint, datasetFormatOf, readDataset } from "./dataset.js";
import type { DatasetEntry } from "./dataset.js";

const directory = mkdtempSync(path.join(os.tmpdir(), "toolscore-dataset-"));
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = path.join(directory, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

async function all(file: string, options = {}): Promise<DatasetEntry[]> {
  const entries: DatasetEntry[] = [];
  for await (const entry of readDataset(file, options)) entries.push(entry);
  return entries;
}

const caseLine = (id: string) =>
  JSON.stringify({ id, tools_called: [{ name: "a", input_parameters: {} }], expected_tools: [] });

describe("readDataset", () => {
  it("streams JSONL, reporting a malformed line by number and reading on", async () => {
    const file = write(
      "runs.jsonl",
      `\ufeff${caseLine("one")}\r\n\n{"id": "two", oops}\n[1]\n   \n${caseLine("three")}`,
    );
    const entries = await all(file);
    expect(entries).toHaveLength(4);
    const [one, two, three, four] = entries;
    expect(one).toMatchObject({ id: "one", index: 0, line: 1 });
    expect(DatasetParseError.isInstance(two)).toBe(true);
    expect(two).toMatchObject({ line: 3, item: 1, source: file });
    expect((two as DatasetParseError).message).toMatch(/^line 3: not valid JSON: /);
    expect(three).toMatchObject({
      line: 4,
      message: "line 4: a test case must be a JSON object, got an array",
    });
    expect(four).toMatchObject({ id: "three", index: 3, line: 6 });
  });

  it("keeps lines whole across read chunks, multi-byte characters included", async () => {
    const long = "é".repeat(700_000); // 1.4 MB of two-byte characters: spans chunk boundaries
    const lines = [0, 1, 2].map((n) =>
      JSON.stringify({ id: `c${n}`, input: `${n}${long}`, tools_called: [], expected_tools: [] }),
    );
    const entries = (await all(write("long.jsonl", `${lines.join("\n")}\n`))) as DatasetCase[];
    expect(entries.map((entry) => entry.id)).toEqual(["c0", "c1", "c2"]);
    expect(entries.every((entry) => (entry.input as string).endsWith("é"))).toBe(true);
    expect((entries[2].input as string).length).toBe(700_001);
  });

  it("reads transcripts from files next to the dataset, and refuses files outside it", async () => {
    write(
      "sub/run.json",
      JSON.stringify([
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "t", name: "search", input: { q: "x" } }],
        },
      ]),
    );
    write(
      "sub/expected.jsonl",
      `${JSON.stringify({ role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "search", arguments: '{"q":"x"}' } }] })}\n`,
    );
    const outside = mkdtempSync(path.join(os.tmpdir(), "toolscore-outside-"));
    writeFileSync(path.join(outside, "secret.json"), "[]");
    const file = write(
      "sub/with-files.jsonl",
      [
        JSON.stringify({
          id: "files",
          trajectory_file: "run.json",
          expectedTrajectoryFile: "expected.jsonl",
        }),
        JSON.stringify({
          id: "escape",
          trajectory_file: path.join("..", "..", path.basename(outside), "secret.json"),
        }),
        JSON.stringify({ id: "absent", trajectory_file: "nope.json" }),
      ].join("\n"),
    );
    const [files, escape, absent] = await all(file);
    expect(files).toMatchObject({
      id: "files",
      toolsCalled: [{ name: "search", inputParameters: { q: "x" } }],
      expectedTools: [{ name: "search", inputParameters: { q: "x" } }],
      trajectory: { format: "anthropic" },
      expectedTrajectory: { format: "openai-chat" },
    });
    expect((escape as DatasetParseError).message).toMatch(
      /line 2: trajectory_file .* is outside the dataset's folder/,
    );
    expect((absent as DatasetParseError).message).toBe(
      'line 3: trajectory_file "nope.json" does not exist',
    );
    rmSync(outside, { recursive: true, force: true });
  });

  it("reads JSON arrays and { cases } objects, naming items by position", async () => {
    const array = await all(write("a.json", JSON.stringify([JSON.parse(caseLine("x")), 5])));
    expect(array[0]).toMatchObject({ id: "x", index: 0 });
    expect((array[1] as DatasetParseError).message).toBe(
      "item 1: a test case must be a JSON object, got number",
    );
    const wrapped = await all(
      write("b.json", JSON.stringify({ cases: [JSON.parse(caseLine("y"))] })),
    );
    expect(wrapped).toMatchObject([{ id: "y" }]);
  });

  it("locates a JSON syntax error", async () => {
    const file = write("broken.json", '[\n  {"id": "a"},\n  {"id": }\n]');
    await expect(all(file)).rejects.toThrow(/is not valid JSON: .*\(line 3, column \d+\)/);
  });

  it("reads YAML with line numbers", async () => {
    const file = write(
      "runs.yaml",
      [
        "cases:",
        "  - id: first",
        "    tools_called: []",
        "    expected_tools: []",
        "  - id: second",
        "    tools_called: {}",
      ].join("\n"),
    );
    const [first, second] = await all(file);
    expect(first).toMatchObject({ id: "first", line: 2 });
    expect(second).toMatchObject({ line: 5, message: "line 5: tools_called must be a list" });
    await expect(all(write("bad.yml", "- id: [unclosed\n"))).rejects.toThrow(/is not valid YAML/);
  });

  it("refuses what it cannot read, with a fix in the message", async () => {
    expect(() => datasetFormatOf("runs.csv")).toThrow(InvalidOptionError);
    await expect(all(path.join(directory, "missing.jsonl"))).rejects.toThrow(/no such file/);
    await expect(all(write("scalar.json", "42"))).rejects.toThrow(/must hold a list of test cases/);
  });

  it("fingerprints a file by size and content", async () => {
    const file = write("print.jsonl", caseLine("a"));
    const before = await datasetFingerprint(file);
    expect(await datasetFingerprint(file)).toBe(before);
    write("print.jsonl", caseLine("b"));
    expect(await datasetFingerprint(file)).not.toBe(before);
  });

  it("fingerprints every byte, not only the ends of a large file", async () => {
    // Several read chunks long, and not a whole number of them.
    const text = Buffer.alloc(3 * (1 << 20) + 12_345, "x");
    const file = path.join(directory, "large.jsonl");
    writeFileSync(file, text);
    const before = await datasetFingerprint(file);
    for (const at of [0, (1 << 20) + 7, 2 * (1 << 20) - 1, text.length - 1]) {
      const changed = Buffer.from(text);
      changed[at] = "y".charCodeAt(0);
      writeFileSync(file, changed);
      expect(await datasetFingerprint(file), `byte ${at}`).not.toBe(before);
    }
    writeFileSync(file, text);
    expect(await datasetFingerprint(file)).toBe(before);
    writeFileSync(file, Buffer.concat([text, Buffer.from("\n")]));
    expect(await datasetFingerprint(file)).not.toBe(before);
  });
});
