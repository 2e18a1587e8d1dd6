import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";

/** What a file named in data is, when it is not one to read. */
export class NotARegularFileError extends Error {
  constructor(readonly kind: string) {
    super(`is ${kind}, not a regular file`);
    this.name = "NotARegularFileError";
  }
}

/** The flags a file named in data is opened with: read only, never waiting on a FIFO. */
function readFlags(options: RegularFileOptions): number {
  return (
    constants.O_RDONLY |
    constants.O_NONBLOCK |
    (options.noFollow === true ? constants.O_NOFOLLOW : 0)
  );
}

function kindOf(stats: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}): string {
  if (stats.isDirectory()) return "a folder";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

/** A file named in data that is larger than its reader takes. */
export class FileTooLargeError extends Error {
  constructor(
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`is ${size} bytes, over the ${maxBytes}-byte limit`);
    this.name = "FileTooLargeError";
  }
}

export interface RegularFileOptions {
  /** Refuse a symlink rather than follow it (`ELOOP`). Default false. */
  readonly noFollow?: boolean;
}

/**
 * Opens a file named in data for reading, only if it is a regular file: a FIFO, a device or a
 * socket would block a read for good. Opened without blocking and checked on the open handle,
 * so a file swapped after a check cannot slip through. Throws `NotARegularFileError` otherwise.
 */
export async function openRegularFile(
  file: string,
  options: RegularFileOptions = {},
): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(file, readFlags(options));
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotARegularFileError(kindOf(stats));
    return { handle, size: stats.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * The whole content of a regular file named in data (see `openRegularFile`), of at most
 * `maxBytes`: a larger one is a `FileTooLargeError`, decided from its size before it is read.
 */
export async function readRegularFile(
  file: string,
  options: RegularFileOptions & { readonly maxBytes: number },
): Promise<Buffer> {
  const { handle, size } = await openRegularFile(file, options);
  try {
    if (size > options.maxBytes) throw new FileTooLargeError(size, options.maxBytes);
    const content = await handle.readFile();
    // Grown since it was opened: the limit holds all the same.
    if (content.length > options.maxBytes) {
      throw new FileTooLargeError(content.length, options.maxBytes);
    }
    return content;
  } finally {
    await handle.close();
  }
}

/**
 * `readRegularFile` for the few callers that must read before anything else can run (a config
 * file, a lock): the same checks, synchronously.
 */
export function readRegularFileSync(
  file: string,
  options: RegularFileOptions & { readonly maxBytes: number },
): Buffer {
  const fd = openSync(file, readFlags(options));
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotARegularFileError(kindOf(stats));
    if (stats.size > options.maxBytes) throw new FileTooLargeError(stats.size, options.maxBytes);
    // One byte more than the limit tells a file that grew since.
    const buffer = Buffer.alloc(Math.min(stats.size, options.maxBytes) + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length === buffer.length) throw new FileTooLargeError(length, options.maxBytes);
    }
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}
