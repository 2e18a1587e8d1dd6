import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as argumentCorrectness from "../src/judges/prompts/argument-correctness.js";
import * as faithfulness from "../src/judges/prompts/faithfulness.js";
import * as judgedValue from "../src/judges/prompts/judged-value.js";
import * as simulatedUser from "../src/judges/prompts/simulated-user.js";
import * as taskCompletion from "../src/judges/prompts/task-completion.js";
import * as toolSelection from "../src/judges/prompts/tool-selection.js";

const page = readFileSync(path.resolve("docs/reference/prompts.md"), "utf8");
/** The JSON blocks of the page, parsed (the formatter lays them out its own way). */
const jsonBlocks = [...page.matchAll(/```json\n([\s\S]*?)\n```/g)].map(
  (block) => JSON.parse(block[1]) as unknown,
);

describe("docs/reference/prompts.md", () => {
  it("shows every judge's instructions and answer schema word for word, with its version (decision-model forms too)", () => {
    const modules = [
      argumentCorrectness,
      faithfulness,
      judgedValue,
      simulatedUser,
      taskCompletion,
      toolSelection,
    ];
    let shown = 0;
    for (const module of modules) {
      for (const [name, value] of Object.entries(module)) {
        if (name.endsWith("Instructions")) {
          expect(page, name).toContain(`\`\`\`text\n${value as string}\n\`\`\``);
          shown++;
        } else if (name.endsWith("Schema")) {
          const schema = (value as { schema: unknown }).schema;
          expect(jsonBlocks, name).toContainEqual(schema);
        } else if (name.endsWith("PromptVersion") || name.endsWith("DecisionVersion")) {
          expect(page, name).toContain(`Version \`${value as string}\`.`);
        } else if (name.endsWith("Question") && typeof value === "object") {
          // A decision model's typed question.
          expect(jsonBlocks, name).toContainEqual(value);
        }
      }
    }
    expect(shown).toBe(12);
  });
});
