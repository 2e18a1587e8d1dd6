/** A judge's score next to the label a person gave the same case. */
export interface LabelledScore {
  readonly label: number;
  readonly score: number;
}

/** How far a judge agrees with labels. */
export interface AgreementStats {
  readonly cases: number;
  /** Share of cases where judge and label agree on pass/fail (at the threshold). */
  readonly accuracy: number;
  /** Mean absolute difference between score and label. */
  readonly meanAbsoluteError: number;
  /** Share of cases where the score equals the label exactly. */
  readonly exactAgreement: number;
  /**
   * Cohen's kappa on pass/fail: agreement beyond chance, 1 perfect, 0 no better than chance;
   * undefined when chance agreement is already certain (everything on one side).
   */
  readonly cohensKappa: number | undefined;
  readonly confusion: {
    readonly bothPass: number;
    readonly bothFail: number;
    /** The judge passed what the label failed. */
    readonly judgeOnlyPass: number;
    /** The judge failed what the label passed. */
    readonly labelOnlyPass: number;
  };
}

/** Agreement of scores with labels; pass means at least `threshold` (default 0.5). */
export function agreementStats(pairs: readonly LabelledScore[], threshold = 0.5): AgreementStats {
  const n = pairs.length;
  const confusion = { bothPass: 0, bothFail: 0, judgeOnlyPass: 0, labelOnlyPass: 0 };
  let absolute = 0;
  let exact = 0;
  for (const { label, score } of pairs) {
    const labelPass = label >= threshold;
    const judgePass = score >= threshold;
    if (labelPass && judgePass) confusion.bothPass++;
    else if (!labelPass && !judgePass) confusion.bothFail++;
    else if (judgePass) confusion.judgeOnlyPass++;
    else confusion.labelOnlyPass++;
    absolute += Math.abs(score - label);
    if (score === label) exact++;
  }
  if (n === 0) {
    return {
      cases: 0,
      accuracy: 0,
      meanAbsoluteError: 0,
      exactAgreement: 0,
      cohensKappa: undefined,
      confusion,
    };
  }
  const observed = (confusion.bothPass + confusion.bothFail) / n;
  const labelPass = (confusion.bothPass + confusion.labelOnlyPass) / n;
  const judgePass = (confusion.bothPass + confusion.judgeOnlyPass) / n;
  const chance = labelPass * judgePass + (1 - labelPass) * (1 - judgePass);
  return {
    cases: n,
    accuracy: observed,
    meanAbsoluteError: absolute / n,
    exactAgreement: exact / n,
    cohensKappa: chance >= 1 ? undefined : (observed - chance) / (1 - chance),
    confusion,
  };
}

/**
 * A 95% interval of Cohen's kappa by the percentile bootstrap: `resamples` draws of the pairs with
 * replacement, seeded so that a calibration reads the same twice. Undefined with fewer than two
 * pairs, or when no draw has a kappa.
 */
export function kappaInterval(
  pairs: readonly LabelledScore[],
  threshold: number,
  options: { readonly resamples?: number; readonly seed?: number } = {},
): readonly [low: number, high: number] | undefined {
  if (pairs.length < 2) return undefined;
  const random = seededRandom(options.seed ?? 1);
  const kappas: number[] = [];
  const draw: LabelledScore[] = new Array<LabelledScore>(pairs.length);
  for (let round = 0; round < (options.resamples ?? 2000); round++) {
    for (let at = 0; at < pairs.length; at++) draw[at] = pairs[Math.floor(random() * pairs.length)];
    const kappa = agreementStats(draw, threshold).cohensKappa;
    if (kappa !== undefined) kappas.push(kappa);
  }
  if (kappas.length === 0) return undefined;
  kappas.sort((a, b) => a - b);
  const at = (share: number) =>
    kappas[Math.min(kappas.length - 1, Math.floor(share * kappas.length))];
  return [at(0.025), at(0.975)];
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Landis and Koch's words for a kappa. */
export function kappaWords(kappa: number): string {
  if (kappa <= 0) return "no better than chance";
  if (kappa <= 0.2) return "slight agreement";
  if (kappa <= 0.4) return "fair agreement";
  if (kappa <= 0.6) return "moderate agreement";
  if (kappa <= 0.8) return "substantial agreement";
  return "almost perfect agreement";
}
