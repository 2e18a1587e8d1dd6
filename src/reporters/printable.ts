// C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides and
// isolates that can reorder what a terminal shows. Matching control characters is the point.
// eslint-disable-next-line no-control-regex
const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text from data made safe to print to a terminal: escape sequences and other control
 * characters are shown as `\x1b`-style escapes instead of being obeyed, so a case id or a
 * reason cannot move the cursor, retitle the window or hide what follows.
 */
export function printable(text: string): string {
  return text.replace(unsafe, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, "0")}`
      : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
