import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { DatasetParseError } from "../src/core/errors.js";
import { jsonlLines, readDataset, readDatasetLine } from "../src/node/dataset.js";
import { jsonlTextLines } from "../src/core/jsonl-lines.js";
import { recordsByIndex, runCliProcess } from "./support/cli.js";

/**
 * One JSONL line reader decides what a blank line, a BOM and a line end are, for every path:
 * readDataset (streamed), toolscore eval's batches (in the main thread and in workers), a case's
 * line read again by its place, and a transcript file held in memory. Each path must see the same
 * lines, at the same (index, line), for any mix of blank, whitespace, BOM, CRLF and Unicode-space
 * lines.
 */

const runs = { numRuns: 20, seed: 20261125 };
const root = mkdtempSync(path.join(tmpdir(), "toolscore-jsonl-"));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const call = { name: "a", inputParameters: {} };
const line = fc.oneof(
  fc
    .nat(1000)
    .map((n) => JSON.stringify({ id: `c${n}`, toolsCalled: [call], expectedTools: [call] })),
  // JSON whitespace only: blank.
  fc.constantFrom("", " ", "\t", " \t ", "\r"),
  // Not JSON whitespace: content, so an error line, never skipped in silence.
  fc.constantFrom("\f", "\v", "\u00a0", "\u2028", "\u3000", "\ufeff", "{", " \u00a0{}"),
  // A byte that is not UTF-8 (Latin-1's "é", written where \ue000 stands): that line's error.
  fc.constantFrom(
    JSON.stringify({ id: "andr\ue000", toolsCalled: [], expectedTools: [] }),
    "\ue000",
  ),
  // Cases with Unicode around them.
  fc.constantFrom(
    ` ${JSON.stringify({ id: "日本語 🚀", toolsCalled: [], expectedTools: [] })}\t`,
    `\u00a0${JSON.stringify({ id: "nbsp", toolsCalled: [], expectedTools: [] })}`,
  ),
);
const file = fc.record({
  bom: fc.boolean(),
  lines: fc.array(fc.tuple(line, fc.constantFrom("\n", "\r\n")), { minLength: 1, maxLength: 12 }),
  finalNewline: fc.boolean(),
});

function textOf(input: { bom: boolean; lines: [string, string][]; finalNewline: boolean }) {
  const parts = input.lines.map(([text, end], at) =>
    at === input.lines.length - 1 && !input.finalNewline ? text : text + end,
  );
  return (input.bom ? "\ufeff" : "") + parts.join("");
}

let counter = 0;

describe("one JSONL line reader for every path", () => {
  it("gives every path the same (index, line)", async () => {
    await fc.assert(
      fc.asyncProperty(file, async (input) => {
        const folder = path.join(root, `run-${counter++}`);
        const dataset = path.join(folder, "runs.jsonl");
        const text = textOf(input);
        mkdirSync(folder);
        // Each \ue000 becomes the byte 0xE9, which no UTF-8 decoder may take in silence.
        writeFileSync(
          dataset,
          Buffer.concat(
            text
              .split("\ue000")
              .flatMap((part, at) => [
                ...(at === 0 ? [] : [Buffer.from([0xe9])]),
                Buffer.from(part),
              ]),
          ),
        );

        const fromReader: { index: number; line: number; error: boolean }[] = [];
        for await (const entry of readDataset(dataset)) {
          if (DatasetParseError.isInstance(entry)) {
            fromReader.push({ index: entry.item ?? -1, line: entry.line ?? -1, error: true });
          } else {
            fromReader.push({ index: entry.index, line: entry.line ?? -1, error: false });
            // Read again by its place, as reports do: the same case.
            const again = await readDatasetLine(dataset, {
              index: entry.index,
              line: entry.line ?? 0,
              offset: entry.offset ?? -1,
              bytes: entry.bytes ?? -1,
            });
            expect(DatasetParseError.isInstance(again) ? undefined : again.id).toBe(entry.id);
          }
        }
        // The same lines as a text in memory (transcript files) and as a stream.
        const streamed = [];
        for await (const item of jsonlLines(dataset)) streamed.push(item.line);
        expect(jsonlTextLines(text).map((item) => item.line)).toEqual(streamed);
        expect(fromReader.map((item) => item.line)).toEqual(streamed);

        if (fromReader.length === 0) return;
        for (const workers of ["0", "1"]) {
          const run = await runCliProcess(
            ["eval", "runs.jsonl", "--workers", workers, "--out", `w${workers}.jsonl`],
            { cwd: folder },
          );
          expect([0, 1, 3], run.stderr).toContain(run.code);
          const records = recordsByIndex(path.join(folder, `w${workers}.jsonl`));
          const fromCli = [...records.values()]
            .map((record) => ({
              index: record.index as number,
              line: record.line as number,
              error: record.status === "error",
            }))
            .sort((a, b) => a.index - b.index);
          expect(fromCli, `--workers ${workers}`).toEqual(fromReader);
        }
      }),
      runs,
    );
  });
});
