/** A kind of error with a cross-copy test (toolscore's error classes have `isInstance`). */
interface ErrorKind<E> {
  isInstance(value: unknown): value is E;
}

/**
 * What `run` throws: the error, of `kind` when given (anything else is thrown on); a test failure
 * when it throws nothing.
 */
export function thrown<E = unknown>(run: () => unknown, kind?: ErrorKind<E>): E {
  try {
    run();
  } catch (error) {
    if (kind === undefined || kind.isInstance(error)) return error as E;
    throw error;
  }
  throw new Error("expected an error, and none was thrown");
}
