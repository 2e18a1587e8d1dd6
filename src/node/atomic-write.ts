import { randomUUID } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * Writes a file so that readers see the old content or the new, never a part: the text goes to a
 * temporary file beside it, which is then renamed over the target (atomic on one file system).
 * A crash leaves at most a stray `.tmp` file; two processes writing at once each rename a whole
 * file, and the last one wins.
 */
export async function writeFileAtomic(target: string, text: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
