import { constants } from "node:fs";
import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";

/** What a file named in data is, when it is not one to read. */
export class NotARegularFileError extends Error {
  constructor(readonly kind: string) {
    super(`is ${kind}, not a regular file`);
    this.name = "NotARegularFileError";
  }
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

/**
 * Opens a file named in data for reading, only if it is a regular file: a FIFO, a device or a
 * socket would block a read for good. Opened without blocking and checked on the open handle,
 * so a file swapped after a check cannot slip through. Throws `NotARegularFileError` otherwise.
 */
export async function openRegularFile(file: string): Promise<{ handle: FileHandle; size: number }> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new NotARegularFileError(kindOf(stats));
    return { handle, size: stats.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The whole content of a regular file named in data (see `openRegularFile`). */
export async function readRegularFile(file: string): Promise<Buffer> {
  const { handle } = await openRegularFile(file);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
