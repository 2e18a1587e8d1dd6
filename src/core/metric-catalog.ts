/**
 * Every metric toolscore makes by id, described without its code: what `--help`, shell
 * completion and the config schema list, so that listing the metrics loads none of them. Each
 * definition (`metrics/`, `judges/`, `compat/`) takes its description from here by id.
 */
export const metricCatalog = [
  {
    id: "tool-call-accuracy",
    description:
      "toolscore's matcher: optimal pairing, order modes, argument rules and matchers, schemas",
    judge: "optional",
    when: "for cases whose expected calls hold judged values (match.judged), given --judge",
  },
  {
    id: "deepeval-tool-correctness",
    description: "deepeval's ToolCorrectnessMetric (names, input parameters, output; order modes)",
    judge: "none",
  },
  {
    id: "axion-tool-correctness",
    description: "axion's ToolCorrectness (exact, subset or fuzzy arguments; strict order)",
    judge: "none",
  },
  {
    id: "ragas-tool-call-accuracy",
    description: "ragas' ToolCallAccuracy (names in sequence gate the score; arguments as str())",
    judge: "none",
  },
  {
    id: "ragas-tool-call-f1",
    description: "ragas' ToolCallF1 (F1 over the sets of calls, names and arguments)",
    judge: "none",
  },
  {
    id: "response-contains",
    description: "every string of the case's expectedOutputContains appears in the agent's replies",
    judge: "none",
  },
  {
    id: "recovery",
    description:
      "how the agent handled failed tool calls: retries within a limit, no state-changing call repeated after a timeout, no success claimed",
    judge: "none",
  },
  {
    id: "efficiency",
    description:
      "what a run cost against budgets: calls, repeats, loops, retries, calls beyond the expected, tokens, time, dollars",
    judge: "none",
  },
  {
    id: "tool-safety",
    description:
      "injected instructions and leaked data by rule: deciding values from a tool's output, not the user; secrets and canaries sent out; allow-lists",
    judge: "none",
  },
  {
    id: "deepeval-multimodal-tool-correctness",
    description:
      "deepeval's MultimodalToolCorrectnessMetric: the deepeval metric for cases that need an actualOutput",
    judge: "optional",
    when: "when its availableTools option is set (of every case's tool selection)",
  },
  {
    id: "deepeval-trajectory-tool-correctness",
    description:
      "deepeval's DeepEvalToolCorrectnessMetric: names, input parameters and output, names normalized; a judge of selection for cases with availableTools",
    judge: "optional",
    when: "for cases with availableTools, given --judge (every case: its availableTools option)",
  },
  {
    id: "tool-selection",
    description: "an LLM judge of the tools chosen against the case's availableTools",
    judge: "required",
  },
  {
    id: "multimodal-faithfulness",
    description:
      "a vision-LLM judge of each claim of the answer against the case's text and image contexts (graded)",
    judge: "required",
  },
  {
    id: "argument-correctness",
    description:
      "an LLM judge of each call's arguments against the request and the tool outputs before it (share of calls right)",
    judge: "required",
  },
  {
    id: "task-completion",
    description:
      "an LLM judge of the whole run (calls, outputs, replies): did the agent do what the user asked, against expectedOutcome when given",
    judge: "required",
  },
  {
    id: "ragas-multimodal-faithfulness",
    description:
      "ragas' MultiModalFaithfulness: is every claim supported by the text and image contexts (1 or 0)",
    judge: "required",
  },
  {
    id: "ragas-multimodal-relevance",
    description:
      "ragas' MultiModalRelevance: does the answer address the input, in line with the contexts (1 or 0)",
    judge: "required",
  },
] as const satisfies readonly {
  readonly id: string;
  readonly description: string;
  /** Never, always, or (`when`, in words for `--help`) for some options or cases. */
  readonly judge: "none" | "required" | "optional";
  readonly when?: string;
}[];

type Entry = (typeof metricCatalog)[number];

/** The id of a metric toolscore makes. */
export type MetricId = Entry["id"];

/** Every metric's id, in the order `--help` lists them. */
export const metricIds: readonly MetricId[] = metricCatalog.map((entry) => entry.id);

type Described<Id extends MetricId> = {
  readonly id: Id;
  readonly description: string;
  readonly judge: Extract<Entry, { id: Id }>["judge"];
};

/** A definition's id, description and judge kind, from its catalog entry. */
export function describedMetric<const Id extends MetricId>(id: Id): Described<Id> {
  const entry = metricCatalog.find((candidate) => candidate.id === id) as Entry;
  return { id, description: entry.description, judge: entry.judge } as Described<Id>;
}

/** When a metric whose judge is optional asks it, in words for `--help`. */
export function judgeWhen(id: Extract<Entry, { judge: "optional" }>["id"]): string {
  const entry = metricCatalog.find((candidate) => candidate.id === id) as Extract<
    Entry,
    { judge: "optional" }
  >;
  return entry.when;
}
