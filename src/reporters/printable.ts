// C0 controls but tab, DEL, C1 controls, and the bidirectional overrides and isolates that can
// reorder what a terminal shows. Matching control characters is the point.
// eslint-disable-next-line no-control-regex
const unsafe = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function escaped(char: string): string {
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * Text from data made safe to print on one line of a terminal or a CI log: escape sequences,
 * line breaks and other control characters are shown as `\x1b`-style escapes instead of being
 * obeyed, so a case id or a reason cannot move the cursor, retitle the window, hide what follows
 * or start a line of its own; and the CI workflow commands a log obeys (`::` starting a line,
 * `##[` anywhere) are broken by escaping their last character (see {@link guardConsole}).
 */
export function printable(text: string): string {
  return new CommandBreaker().pass(text.replace(unsafe, escaped));
}

/** The same for text of several lines (an error's message with a quoted snippet): each line. */
export function printableLines(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => printable(line))
    .join("\n");
}

/**
 * Breaks the workflow commands a CI log obeys, as text goes by (one write after another): the
 * second `:` of `::` starting a line (after spaces: GitHub Actions trims them), and the `[` of the
 * legacy `##[` (GitHub) and `##vso[` (Azure Pipelines) anywhere, are written as escapes. The
 * last character is the one escaped, so a command split across two writes is broken too.
 */
class CommandBreaker {
  /** Where the current line stands: only spaces so far, spaces and one `:`, or more. */
  private line: "start" | "colon" | "text" = "start";
  /** The last characters passed, for `##[` split across writes. */
  private recent = "";

  pass(text: string): string {
    if (!/[:[\n]/.test(text) && this.line === "text") {
      this.recent = (this.recent + text).slice(-5);
      return text;
    }
    let out = "";
    for (const char of text) {
      let shown = char;
      if (char === ":" && this.line === "colon") shown = "\\x3a";
      else if (char === "[" && (this.recent.endsWith("##") || this.recent.endsWith("##vso"))) {
        shown = "\\x5b";
      }
      if (char === "\n") this.line = "start";
      else if (this.line === "start" && (char === " " || char === "\t")) this.line = "start";
      else if (this.line === "start" && char === ":") this.line = "colon";
      else this.line = "text";
      this.recent = (this.recent + char).slice(-5);
      out += shown;
    }
    return out;
  }
}

// What toolscore itself writes to a console (a progress line's erase, colours); any other
// control character in the stream came from data.
const ownOrUnsafe =
  // eslint-disable-next-line no-control-regex
  /\r\u001b\[2K|\u001b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A console stream that lets nothing from data through as a command, whatever slipped into a
 * line unescaped: control characters but line breaks, tabs and toolscore's own colours and
 * progress erase are escaped as `printable` escapes them, and CI workflow commands are broken
 * (a line starting with `::` after spaces, `##[` anywhere), across writes too. The CLI writes
 * through it, so a case id, a file name or a message cannot retitle a terminal, add a mask, stop
 * commands or raise an annotation in a GitHub Actions log; and what `redact` takes out
 * (credentials, the run's keys) never reaches it.
 */
export function guardConsole<T extends { write(text: string): unknown }>(
  stream: T,
  redact: (text: string) => string = (text) => text,
): T {
  const breaker = new CommandBreaker();
  const guarded = Object.create(stream) as T;
  guarded.write = (text: string) => {
    const safe = redact(text).replace(ownOrUnsafe, (match) =>
      match.length > 1 ? match : escaped(match),
    );
    return stream.write(breaker.pass(safe));
  };
  return guarded;
}
