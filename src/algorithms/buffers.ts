/**
 * Number buffers sized for speed: V8 allocates a typed array over 64 bytes outside the heap, at
 * about 0.7 µs each, which dwarfs the work on the small matrices most cases have. Up to this
 * length a plain array is used instead; beyond it, a typed array's compactness wins.
 */
const PLAIN_UP_TO = 4096;

/** A buffer of numbers: a plain array when small, a `Float64Array` when large. */
export type Numbers = number[] | Float64Array;

/** A buffer of `length` zeros. */
export function zeros(length: number): Numbers {
  return length <= PLAIN_UP_TO ? new Array<number>(length).fill(0) : new Float64Array(length);
}

/** A buffer of `length` copies of `value`. */
export function filled(length: number, value: number): Numbers {
  return length <= PLAIN_UP_TO
    ? new Array<number>(length).fill(value)
    : new Float64Array(length).fill(value);
}
