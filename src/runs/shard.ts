/** One of `count` shards of a dataset: the cases whose position mod `count` is `index`. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** Whether the case at a dataset position belongs to the shard (every case, without one). */
export function inShard(shard: Shard | undefined, position: number): boolean {
  return shard === undefined || position % shard.count === shard.index;
}
