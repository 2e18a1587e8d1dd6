import { constants, lstatSync, readlinkSync } from "node:fs";
import path from "node:path";
import { InvalidOptionError } from "../core/errors.js";

/**
 * Flags that open a file for writing without following a symbolic link at its name (`ELOOP`
 * instead): what toolscore writes lands in the file named, never in a link's target.
 */
export const writeFlags = {
  /** Created or emptied. */
  truncate: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
  /** Created, or written after its end. */
  append: constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW,
  /** An existing file, read and written in place. */
  update: constants.O_RDWR | constants.O_NOFOLLOW,
} as const;

/**
 * Refuses to write `file` through a symbolic link: its own name, or a folder on the way to it at
 * or below `within` (a checkout holds links from whoever wrote it, and a report written through
 * one would replace whatever it points to). Folders above `within` (a system's own links) are
 * not looked at. Throws an `InvalidOptionError` naming `option`.
 */
export function refuseLinkedOutput(
  file: string,
  options: { readonly option: string; readonly within: string; readonly shown?: string },
): void {
  const target = path.resolve(options.within, file);
  const relative = path.relative(options.within, target);
  const inside = relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  const checked = inside
    ? relative
        .split(path.sep)
        .map((_, at, parts) => path.join(options.within, ...parts.slice(0, at + 1)))
    : [target];
  for (const place of checked) {
    let isLink: boolean;
    try {
      isLink = lstatSync(place).isSymbolicLink();
    } catch {
      return; // nothing there yet, nor below it
    }
    if (!isLink) continue;
    const shown = options.shown ?? file;
    throw new InvalidOptionError({
      option: options.option,
      value: file,
      message: `${shown}: ${place === target ? "it" : path.relative(options.within, place)} is a symbolic link (to ${readlinkSync(place)}); toolscore writes nothing through a link, which a checkout may hold from a pull request: remove the link, or name the file it points to`,
    });
  }
}
