import { describe, expect, it } from "vitest";
import { guardConsole, printable, printableLines } from "./printable.js";

/** Issue 22, item 9: escape sequences from data never reach the terminal raw. */

describe("printable", () => {
  it("shows control characters, line breaks and bidi overrides as escapes, keeping the rest", () => {
    expect(printable("a\u001b[2Jb\u0007c\u009bd\u202ee\tf\ng é 😀\r")).toBe(
      "a\\x1b[2Jb\\x07c\\x9bd\\u202ee\tf\\x0ag é 😀\\x0d",
    );
  });

  it("escapes the workflow commands a CI log obeys (issue 34, item 4)", () => {
    expect(printable("::add-mask::x")).toBe(":\\x3aadd-mask::x");
    expect(printable("  ::error::x")).toBe("  :\\x3aerror::x");
    expect(printable("id\n::stop-commands::t")).toBe("id\\x0a::stop-commands::t");
    expect(printable("see ##[error]x and ##vso[task.setvariable]y")).toBe(
      "see ##\\x5berror]x and ##vso\\x5btask.setvariable]y",
    );
    expect(printableLines("ok\n  ::warning::x\r\n::x")).toBe("ok\n  :\\x3awarning::x\n:\\x3ax");
  });

  it("guards a console stream: line-starting commands and foreign control characters", () => {
    const written: string[] = [];
    const stream = guardConsole({ write: (text: string) => written.push(text), isTTY: true });
    stream.write("a ::fine:: here\n");
    stream.write("  ");
    stream.write(
      "::add-mask::x\n\u001b[31mred\u001b[0m\r\u001b[2Kbar ##[error]y \u001b]0;t\u0007\n",
    );
    expect(written.join("")).toBe(
      "a ::fine:: here\n  :\\x3aadd-mask::x\n\u001b[31mred\u001b[0m\r\u001b[2Kbar ##\\x5berror]y \\x1b]0;t\\x07\n",
    );
    expect(stream.isTTY).toBe(true);
    // A command split across writes is broken all the same.
    written.length = 0;
    for (const part of [":", ":stop-commands::t\n##", "[error]x\n"]) stream.write(part);
    expect(written.join("")).toBe(":\\x3astop-commands::t\n##\\x5berror]x\n");
  });
});
