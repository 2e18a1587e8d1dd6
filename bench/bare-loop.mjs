/** The floor the eval rows are held to: read a JSONL file's lines and JSON.parse each, nothing else. */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

let cases = 0;
const lines = createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity });
for await (const line of lines) {
  if (line === "") continue;
  JSON.parse(line);
  cases++;
}
process.stdout.write(`${cases}\n`);
