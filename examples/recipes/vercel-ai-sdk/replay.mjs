// A stand-in for the agent, so that the recipe runs without a model: it answers each question
// with the recorded run (in runs/) that asked it. Your agent calls its framework instead.
import { readdirSync, readFileSync } from "node:fs";

const folder = new URL("runs/", import.meta.url);
const runs = readdirSync(folder).map((file) => readFileSync(new URL(file, folder), "utf8"));

export default function agent(input) {
  const run = runs.find((text) => text.includes(JSON.stringify(input)));
  if (run === undefined) throw new Error(`no recorded run asks ${JSON.stringify(input)}`);
  return JSON.parse(run);
}
