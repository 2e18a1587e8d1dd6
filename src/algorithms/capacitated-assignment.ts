import type { Flow } from "./optimal-assignment.js";

/** Thrown when an assignment needs more steps than its budget allows. */
export class AssignmentWorkError extends RangeError {
  constructor(readonly maximum: number) {
    super(`the optimal assignment needs more than ${maximum} steps`);
    this.name = "AssignmentWorkError";
  }
}

/**
 * Thrown before any search when the members left over after the perfect pairs need more scores
 * than allowed: each search reads every score of its class, so this is known from the sizes.
 */
export class AssignmentScoresError extends RangeError {
  constructor(
    readonly needed: number,
    readonly maximum: number,
  ) {
    super(`the optimal assignment needs at least ${needed} scores, over ${maximum}`);
    this.name = "AssignmentScoresError";
  }
}

export interface CapacitatedAssignmentInput {
  /** Row classes and column classes, each standing for `capacity` identical members. */
  readonly rows: number;
  readonly cols: number;
  readonly rowCapacity: readonly number[];
  readonly colCapacity: readonly number[];
  /**
   * The score of a row class with a column class, in [0, 1]; 0 means they cannot pair. Asked
   * lazily, only for the classes a search reaches, and at most once per pair.
   */
  readonly score: (row: number, col: number) => number;
  /**
   * Pairs likely to score 1, the best a pair can: those that do are paired before the search
   * starts (identical calls, in most cases with many calls). Any list is correct; a good one is
   * fast.
   */
  readonly likelyPerfect?: readonly (readonly [row: number, col: number])[];
  /** Steps (scores read, nodes scanned) allowed before an {@link AssignmentWorkError}. */
  readonly maxWork: number;
  /**
   * Scores that may still be asked: when the classes left over after the perfect pairs would need
   * more (each search asks a class's score with every class of the other side), an
   * {@link AssignmentScoresError} is thrown before searching, not when the budget runs out.
   */
  readonly maxScores?: number;
}

/** Reduced costs a rounding error below 0 count as 0. */
const tolerance = 1e-12;

/**
 * Maximum-weight b-matching of row classes with column classes (scores in [0, 1], a class pairing
 * up to its capacity), for large groups of calls of one tool. It is the Hungarian algorithm on
 * the members, run on the classes: every member of the side with fewer members is assigned
 * (pairs scoring 0 are dropped at the end), one shortest augmenting path at a time from one class,
 * searching only as far as the nearest class with room. Pairs that score 1 are made first: with
 * potentials 0 on that side and -1 on the other, they are tight and every other pair's reduced
 * cost is 1 - score ≥ 0, so the search starts from an optimal partial assignment and only the
 * members left over cost a search. The total is optimal; among equal totals the choice is
 * deterministic. Flows come in row order.
 */
export function capacitatedAssignment(input: CapacitatedAssignmentInput): Flow[] {
  const { rows, cols } = input;
  if (rows === 0 || cols === 0) return [];
  let rowUnits = 0;
  let colUnits = 0;
  for (const capacity of input.rowCapacity) rowUnits += capacity;
  for (const capacity of input.colCapacity) colUnits += capacity;
  // Side A is assigned whole; side B has room for it.
  const byRow = rowUnits <= colUnits;
  const sizeA = byRow ? rows : cols;
  const sizeB = byRow ? cols : rows;
  const excess = Int32Array.from(byRow ? input.rowCapacity : input.colCapacity);
  const room = Int32Array.from(byRow ? input.colCapacity : input.rowCapacity);
  const maxWork = input.maxWork;
  let work = 0;
  const spend = (steps: number): void => {
    work += steps;
    if (work > maxWork) throw new AssignmentWorkError(maxWork);
  };

  /** The score of A class `a` with B class `b`, asked of the caller; below 0 is 0. */
  const asked = (a: number, b: number): number => {
    const value = byRow ? input.score(a, b) : input.score(b, a);
    return value > 0 ? value : 0;
  };
  // Scores of each A class against every B class, filled the first time a search reaches it.
  const scores: (Float64Array | undefined)[] = new Array<Float64Array | undefined>(sizeA);
  const scoresOf = (a: number): Float64Array => {
    let row = scores[a];
    if (row === undefined) {
      spend(sizeB);
      row = new Float64Array(sizeB);
      for (let b = 0; b < sizeB; b++) row[b] = asked(a, b);
      scores[a] = row;
    }
    return row;
  };
  const scoreOf = (a: number, b: number): number => scores[a]?.[b] ?? asked(a, b);

  // Units paired, both ways: per A class the B classes and counts; per B class the A classes.
  const flowsOfA: number[][] = Array.from({ length: sizeA }, () => []);
  const flowsOfB: number[][] = Array.from({ length: sizeB }, () => []);
  const addFlow = (a: number, b: number, amount: number): void => {
    const listA = flowsOfA[a];
    let at = 0;
    while (at < listA.length && listA[at] !== b) at += 2;
    if (at === listA.length) listA.push(b, 0);
    listA[at + 1] += amount;
    const listB = flowsOfB[b];
    let back = 0;
    while (back < listB.length && listB[back] !== a) back += 2;
    if (back === listB.length) listB.push(a, 0);
    listB[back + 1] += amount;
    if (listA[at + 1] === 0) {
      listA.splice(at, 2);
      listB.splice(back, 2);
    }
    excess[a] -= amount;
    room[b] -= amount;
  };

  // Potentials: reduced cost of A→B is -score + pA - pB, of B→A (undoing a pair) score + pB - pA.
  const potentialA = new Float64Array(sizeA);
  const potentialB = new Float64Array(sizeB).fill(-1);
  /** Scores of each A class asked for the perfect pairs (the caller keeps them). */
  const tried = new Int32Array(sizeA);
  for (const [row, col] of input.likelyPerfect ?? []) {
    const a = byRow ? row : col;
    const b = byRow ? col : row;
    if (excess[a] === 0 || room[b] === 0) continue;
    spend(1);
    tried[a]++;
    if (scoreOf(a, b) >= 1) addFlow(a, b, Math.min(excess[a], room[b]));
  }
  if (input.maxScores !== undefined) {
    // A search starts from each class left with members, and asks its score with every class of
    // the other side: at least those it was not asked yet.
    let needed = 0;
    for (let a = 0; a < sizeA; a++) if (excess[a] > 0) needed += Math.max(0, sizeB - tried[a]);
    if (needed > input.maxScores) throw new AssignmentScoresError(needed, input.maxScores);
  }

  const net: Network = {
    sizeA,
    sizeB,
    excess,
    room,
    flowsOfA,
    flowsOfB,
    potentialA,
    potentialB,
    distanceA: new Float64Array(sizeA),
    distanceB: new Float64Array(sizeB),
    settledA: new Uint8Array(sizeA),
    settledB: new Uint8Array(sizeB),
    previousA: new Int32Array(sizeA),
    previousB: new Int32Array(sizeB),
    settledAList: [],
    settledBList: [],
    scoresOf,
    scoreOf,
    spend,
    addFlow,
  };
  for (let start = 0; start < sizeA; start++) {
    while (excess[start] > 0) augment(net, start, nearestRoom(net, start));
  }

  const flows: Flow[] = [];
  for (let a = 0; a < sizeA; a++) {
    const list = flowsOfA[a];
    for (let at = 0; at < list.length; at += 2) {
      const b = list[at];
      const score = scoreOf(a, b);
      if (score <= 0) continue;
      flows.push(
        byRow
          ? { row: a, col: b, count: list[at + 1], score }
          : { row: b, col: a, count: list[at + 1], score },
      );
    }
  }
  flows.sort((x, y) => x.row - y.row || x.col - y.col);
  return flows;
}

/** The search's state: classes, capacities left, pairs made, potentials and the last search. */
interface Network {
  readonly sizeA: number;
  readonly sizeB: number;
  readonly excess: Int32Array;
  readonly room: Int32Array;
  readonly flowsOfA: number[][];
  readonly flowsOfB: number[][];
  readonly potentialA: Float64Array;
  readonly potentialB: Float64Array;
  readonly distanceA: Float64Array;
  readonly distanceB: Float64Array;
  readonly settledA: Uint8Array;
  readonly settledB: Uint8Array;
  readonly previousA: Int32Array;
  readonly previousB: Int32Array;
  readonly settledAList: number[];
  readonly settledBList: number[];
  readonly scoresOf: (a: number) => Float64Array;
  readonly scoreOf: (a: number, b: number) => number;
  readonly spend: (steps: number) => void;
  readonly addFlow: (a: number, b: number, amount: number) => void;
}

/**
 * The B class with room nearest to A class `start` by reduced cost (Dijkstra over the classes,
 * through pairs that may be undone), its distances and the way back left in `net`.
 */
function nearestRoom(net: Network, start: number): number {
  const { sizeA, sizeB, room, distanceA, distanceB, settledA, settledB, previousA, previousB } =
    net;
  const { potentialA, potentialB, settledAList, settledBList } = net;
  distanceA.fill(Infinity);
  distanceB.fill(Infinity);
  net.spend(sizeA + sizeB);
  for (const a of settledAList) settledA[a] = 0;
  for (const b of settledBList) settledB[b] = 0;
  settledAList.length = 0;
  settledBList.length = 0;
  distanceA[start] = 0;
  for (;;) {
    // The nearest unsettled class; on a tie a B class with room, then any B class, so that
    // room found at the distance searched ends the search (scores are multiples of 2^-32:
    // distances add up exactly, and ties are real).
    let nearestA = -1;
    let nearestB = -1;
    let best = Infinity;
    for (let b = 0; b < sizeB; b++) {
      if (settledB[b] !== 0) continue;
      const distance = distanceB[b];
      if (
        distance < best ||
        (distance === best && distance !== Infinity && room[b] > 0 && room[nearestB] === 0)
      ) {
        best = distance;
        nearestB = b;
      }
    }
    for (let a = 0; a < sizeA; a++) {
      if (settledA[a] === 0 && distanceA[a] < best) {
        best = distanceA[a];
        nearestA = a;
        nearestB = -1;
      }
    }
    net.spend(sizeA + sizeB);
    // Side B always has room for every A member, so a search always ends at some.
    if (nearestA < 0 && nearestB < 0) throw new Error("capacitatedAssignment: no room left");
    if (nearestB >= 0) {
      const b = nearestB;
      settledB[b] = 1;
      settledBList.push(b);
      if (room[b] > 0) return b;
      // Undo a pair: back to each A class paired with b.
      const list = net.flowsOfB[b];
      for (let at = 0; at < list.length; at += 2) {
        const a = list[at];
        if (settledA[a] === 1) continue;
        const reduced = net.scoreOf(a, b) + potentialB[b] - potentialA[a];
        const candidate = distanceB[b] + (reduced > tolerance ? reduced : 0);
        if (candidate < distanceA[a]) {
          distanceA[a] = candidate;
          previousA[a] = b;
        }
      }
      net.spend(list.length);
      continue;
    }
    const a = nearestA;
    settledA[a] = 1;
    settledAList.push(a);
    const row = net.scoresOf(a);
    const base = distanceA[a];
    const potential = potentialA[a];
    for (let b = 0; b < sizeB; b++) {
      if (settledB[b] === 1) continue;
      const reduced = -row[b] + potential - potentialB[b];
      const candidate = base + (reduced > tolerance ? reduced : 0);
      if (candidate < distanceB[b]) {
        distanceB[b] = candidate;
        previousB[b] = a;
      }
    }
    net.spend(sizeB);
  }
}

/** Moves units along the path `nearestRoom` found, and updates the potentials. */
function augment(net: Network, start: number, target: number): void {
  const { distanceA, distanceB, previousA, previousB, flowsOfA } = net;
  const reach = distanceB[target];
  for (const a of net.settledAList) net.potentialA[a] += distanceA[a] - reach;
  for (const b of net.settledBList) net.potentialB[b] += distanceB[b] - reach;
  // As many units as the path carries: the start's excess, the target's room, the pairs undone.
  let amount = Math.min(net.excess[start], net.room[target]);
  for (let b = target; ;) {
    const a = previousB[b];
    if (a === start) break;
    const undone = previousA[a];
    const list = flowsOfA[a];
    let at = 0;
    while (list[at] !== undone) at += 2;
    amount = Math.min(amount, list[at + 1]);
    b = undone;
  }
  for (let b = target; ;) {
    const a = previousB[b];
    if (a === start) {
      net.addFlow(a, b, amount);
      break;
    }
    const undone = previousA[a];
    // Along the way a class pairs anew and undoes a pair: its excess, and the room of the
    // class it leaves, come out even.
    net.addFlow(a, b, amount);
    net.addFlow(a, undone, -amount);
    b = undone;
  }
}
