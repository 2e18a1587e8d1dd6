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
 * `##[` anywhere) are escaped too (see {@link guardConsole}).
 */
export function printable(text: string): string {
  return neutralCommands(text.replace(unsafe, escaped), true);
}

/** The same for text of several lines (an error's message with a quoted snippet): each line. */
export function printableLines(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => printable(line))
    .join("\n");
}

/**
 * Escapes the workflow commands a CI log obeys: `::command::` at the start of a line (after
 * spaces: GitHub Actions trims them), and the legacy `##[command]` (GitHub) and `##vso[`
 * (Azure Pipelines) anywhere in one. `atLineStart`: the text starts a line.
 */
function neutralCommands(text: string, atLineStart: boolean): string {
  let out = text.replace(/##(\[|vso\[)/g, "\\x23#$1");
  if (atLineStart) out = out.replace(/^([ \t]*):(?=:)/, "$1\\x3a");
  return out.replace(/(\n[ \t]*):(?=:)/g, "$1\\x3a");
}

// What toolscore itself writes to a console (a progress line's erase, colours); any other
// control character in the stream came from data.
const ownOrUnsafe =
  // eslint-disable-next-line no-control-regex
  /\r\u001b\[2K|\u001b\[[0-9;]*m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A console stream that lets nothing from data through as a command, whatever slipped into a
 * line unescaped: control characters but line breaks, tabs and toolscore's own colours and
 * progress erase are escaped as `printable` escapes them, and so are CI workflow commands (a
 * line starting with `::` after spaces, `##[` anywhere). The CLI writes through it, so a case
 * id, a file name or a message cannot retitle a terminal, add a mask, stop commands or raise an
 * annotation in a GitHub Actions log; and what `redact` takes out (credentials, the run's keys)
 * never reaches it.
 */
export function guardConsole<T extends { write(text: string): unknown }>(
  stream: T,
  redact: (text: string) => string = (text) => text,
): T {
  let atLineStart = true;
  const guarded = Object.create(stream) as T;
  guarded.write = (text: string) => {
    const safe = redact(text).replace(ownOrUnsafe, (match) =>
      match.length > 1 ? match : escaped(match),
    );
    const out = neutralCommands(safe, atLineStart);
    if (text !== "") {
      atLineStart = /\n[ \t]*$/.test(text) || (atLineStart && /^[ \t]*$/.test(text));
    }
    return stream.write(out);
  };
  return guarded;
}
