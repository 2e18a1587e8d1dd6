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
