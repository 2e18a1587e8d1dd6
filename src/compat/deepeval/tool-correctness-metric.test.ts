import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ProviderConfigError } from "../../core/errors.js";
import {
  InvalidInputError,
  InvalidOptionError,
  LLMTestCase,
  MLLMImage,
  MLLMTestCase,
  MissingTestCaseParamsError,
  MultimodalToolCorrectnessMetric,
  ToolCall,
  ToolCallParams,
  ToolCorrectnessMetric,
} from "./index.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("ToolCorrectnessMetric", () => {
  it("scores a case again after its calls change, and forgets the last reason on error", async () => {
    const testCase = new LLMTestCase({
      input: "Book it",
      toolsCalled: [new ToolCall({ name: "search", inputParameters: { to: "OSL" } })],
      expectedTools: [new ToolCall({ name: "search", inputParameters: { to: "OSL" } })],
    });
    const metric = new ToolCorrectnessMetric({
      evaluationParams: [ToolCallParams.INPUT_PARAMETERS],
    });
    expect(await metric.measure(testCase)).toBe(1);
    testCase.toolsCalled?.push(new ToolCall({ name: "book" }));
    (testCase.expectedTools ?? []).push(new ToolCall({ name: "book", inputParameters: { n: 1 } }));
    expect(await metric.measure(testCase)).toBe(0.5);
    expect(metric.details?.missing.map((call) => call.name)).toEqual(["book"]);
    if (testCase.toolsCalled?.[0] !== undefined)
      testCase.toolsCalled[0].inputParameters = { to: "BGO" };
    expect(await metric.measure(testCase)).toBe(0);
    expect(metric.reason).toContain('missing tools ["search","book"]');
    if (testCase.toolsCalled?.[1] !== undefined)
      testCase.toolsCalled[1].name = 42 as unknown as string;
    await expect(metric.measure(testCase)).rejects.toThrow("toolsCalled[1].name");
    expect(metric.reason).toBeUndefined();
    expect(metric.details).toBeUndefined();
  });

  it("scores the seed's example and sets score, reason and success", async () => {
    const testCase = new LLMTestCase({
      input: "What if these shoes don't fit?",
      actualOutput: "We offer a 30-day full refund at no extra cost.",
      toolsCalled: [new ToolCall({ name: "WebSearch" }), new ToolCall({ name: "ToolQuery" })],
      expectedTools: [new ToolCall({ name: "WebSearch" })],
    });
    const metric = new ToolCorrectnessMetric();
    expect(await metric.measure(testCase)).toBe(1);
    expect(metric.score).toBe(1);
    expect(metric.success).toBe(true);
    expect(metric.isSuccessful()).toBe(true);
    expect(metric.threshold).toBe(0.5);
    expect(metric.name).toBe("Tool Correctness");
    expect(metric.reason).toBe(
      'Tool Calling Reason: All expected tools ["WebSearch"] were called (order not considered).\n' +
        "Tool Selection Reason: No available tools were provided to assess tool selection criteria",
    );
    expect(metric.details?.unexpected).toEqual([{ calledIndex: 1, name: "ToolQuery" }]);
  });

  it("scores the seed's ordering example 2/3, as deepeval's code does", async () => {
    const metric = new ToolCorrectnessMetric({ shouldConsiderOrdering: true });
    const score = await metric.measure({
      input: "q",
      toolsCalled: [{ name: "WebSearch" }, { name: "WebSearch" }, { name: "ToolQuery" }],
      expectedTools: [{ name: "WebSearch" }, { name: "ToolQuery" }, { name: "WebSearch" }],
    });
    expect(score).toBe(2 / 3);
    expect(metric.reasonKind).toBe("incorrect-ordering");
  });

  it("accepts plain objects, input parameters and outputs", async () => {
    const metric = new ToolCorrectnessMetric({
      evaluationParams: [ToolCallParams.INPUT_PARAMETERS, ToolCallParams.OUTPUT],
    });
    await metric.measure({
      input: "What is 15 plus 27?",
      actualOutput: "42",
      toolsCalled: [
        { name: "calculator", inputParameters: { expression: "15 + 27" }, output: "42" },
      ],
      expectedTools: [
        { name: "calculator", inputParameters: { expression: "15 + 27" }, output: "42" },
      ],
    });
    expect(metric.score).toBe(1);
  });

  it("applies strict mode: threshold 1, anything below is 0", async () => {
    const metric = new ToolCorrectnessMetric({ strictMode: true, threshold: 0.2 });
    expect(metric.threshold).toBe(1);
    await metric.measure({
      input: "q",
      toolsCalled: [{ name: "A" }],
      expectedTools: [{ name: "A" }, { name: "B" }],
    });
    expect(metric.score).toBe(0);
    expect(metric.isSuccessful()).toBe(false);
  });

  it("selects optimal pairing on request", async () => {
    const testCase = {
      input: "q",
      expectedTools: [
        { name: "A", inputParameters: { x: 1, y: 9 } },
        { name: "A", inputParameters: { x: 1, y: 1 } },
      ],
      toolsCalled: [
        { name: "A", inputParameters: { x: 1, y: 1 } },
        { name: "A", inputParameters: { x: 1, y: 2 } },
      ],
    };
    const evaluationParams = [ToolCallParams.INPUT_PARAMETERS];
    expect(await new ToolCorrectnessMetric({ evaluationParams }).measure(testCase)).toBe(0.5);
    expect(
      await new ToolCorrectnessMetric({ evaluationParams, matching: "optimal" }).measure(testCase),
    ).toBe(0.75);
  });

  it("leaves the reason out when includeReason is false", async () => {
    const metric = new ToolCorrectnessMetric({ includeReason: false });
    await metric.measure({ input: "q", toolsCalled: [], expectedTools: [] });
    expect(metric.reason).toBeUndefined();
    expect(metric.score).toBe(1);
  });

  it("prints its steps in verbose mode", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const metric = new ToolCorrectnessMetric({ verboseMode: true });
    await metric.measure({
      input: "q",
      toolsCalled: [{ name: "A" }],
      expectedTools: [{ name: "A" }, { name: "B" }],
    });
    expect(log).toHaveBeenCalledOnce();
    const printed = String(log.mock.calls[0]?.[0]);
    expect(printed).toContain("Tool Correctness Verbose Logs");
    expect(printed).toContain("expected[0] A <-> called[0]: 1");
    expect(printed).toContain('Missing: ["B"]');
    expect(printed).toContain("Final Score: 0.5");
    expect(metric.verboseLogs).toContain("Tool Calling Score: 0.5");
    log.mockClear();
    await new ToolCorrectnessMetric().measure({ input: "q", toolsCalled: [], expectedTools: [] });
    expect(log).not.toHaveBeenCalled();
  });

  it("accepts deepeval's model option, which only the selection judge uses", async () => {
    const metric = new ToolCorrectnessMetric({ model: "gpt-4.1", showIndicator: false });
    expect(await metric.measure({ input: "q", toolsCalled: [], expectedTools: [] })).toBe(1);
    expect(() => new ToolCorrectnessMetric({ model: 4 } as never)).toThrow(/model must be/);
  });

  it("sets up the selection judge with availableTools, so a missing key fails before any case", () => {
    const create = () =>
      new ToolCorrectnessMetric({
        availableTools: [new ToolCall({ name: "WebSearch" })],
        modelSettings: { env: {} },
      });
    expect(create).toThrow(ProviderConfigError);
    expect(create).toThrow(/OPENAI_API_KEY/);
    expect(() => new ToolCorrectnessMetric({ availableTools: [] })).not.toThrow();
    expect(
      () =>
        new ToolCorrectnessMetric({
          availableTools: [{ name: "a" }],
          model: "mistral/large",
          modelSettings: { env: {} },
        }),
    ).toThrow(/unknown provider "mistral"/);
    expect(() => new ToolCorrectnessMetric({ modelSettings: { temperature: 0 } as never })).toThrow(
      /modelSettings takes apiKey/,
    );
  });

  it("refuses unknown and invalid options with the option's name", () => {
    expect(() => new ToolCorrectnessMetric({ shouldConsiderOrder: true } as never)).toThrow(
      expect.objectContaining({
        option: "shouldConsiderOrder",
        code: "INVALID_OPTION",
      }) as InvalidOptionError,
    );
    expect(() => new ToolCorrectnessMetric({ threshold: 1.5 })).toThrow(InvalidOptionError);
    expect(() => new ToolCorrectnessMetric({ verboseMode: "yes" } as never)).toThrow(/verboseMode/);
  });

  it("rejects a case missing required fields, naming them", async () => {
    const metric = new ToolCorrectnessMetric();
    const measured = metric.measure({ input: "q" });
    await expect(measured).rejects.toThrow(MissingTestCaseParamsError);
    await expect(metric.measure({ input: "q" })).rejects.toThrow(
      "'toolsCalled' and 'expectedTools' cannot be None for the 'Tool Correctness' metric",
    );
    expect(metric.error).toContain("'toolsCalled' and 'expectedTools'");
    expect(metric.isSuccessful()).toBe(false);
    expect(metric.score).toBeUndefined();
  });

  it("rejects malformed tool calls with the field", async () => {
    const metric = new ToolCorrectnessMetric();
    await expect(
      metric.measure({ input: "q", toolsCalled: [{ name: 3 }], expectedTools: [] } as never),
    ).rejects.toSatisfy(
      (error) => InvalidInputError.isInstance(error) && error.field === "toolsCalled[0].name",
    );
  });
});

describe("MultimodalToolCorrectnessMetric", () => {
  it("scores the seed's example", async () => {
    const metric = new MultimodalToolCorrectnessMetric();
    const score = await metric.measure(
      new MLLMTestCase({
        input: ["What's in this image?", new MLLMImage({ url: "https://example.com/shoes.png" })],
        actualOutput: ["The image shows a pair of running shoes."],
        toolsCalled: [new ToolCall({ name: "ImageAnalysis" }), new ToolCall({ name: "ToolQuery" })],
        expectedTools: [new ToolCall({ name: "ImageAnalysis" })],
      }),
    );
    expect(score).toBe(1);
    expect(metric.name).toBe("Multimodal Tool Correctness");
    expect(metric.reason).toBe(
      'All expected tools ["ImageAnalysis"] were called (order not considered).',
    );
  });

  it("requires actualOutput, and scores empty lists like the text metric", async () => {
    const metric = new MultimodalToolCorrectnessMetric();
    await expect(
      metric.measure({ input: ["q"], toolsCalled: [], expectedTools: [] }),
    ).rejects.toThrow("'actualOutput' cannot be None");
    expect(
      await metric.measure({
        input: ["q"],
        actualOutput: ["a"],
        toolsCalled: [],
        expectedTools: [],
      }),
    ).toBe(1);
  });
});

describe("MLLMImage", () => {
  it("records where an image is without reading it", () => {
    expect(new MLLMImage({ url: "https://x.test/a.png" }).toImagePart()).toEqual({
      type: "image",
      source: { kind: "url", url: "https://x.test/a.png" },
    });
    expect(new MLLMImage({ url: "./photos/a.png" }).local).toBe(true);
    expect(new MLLMImage({ url: "./photos/a.png" }).toImagePart().source).toEqual({
      kind: "path",
      path: "./photos/a.png",
    });
    expect(
      new MLLMImage({ dataBase64: "AAAA", mimeType: "image/png" }).toImagePart().source,
    ).toEqual({
      kind: "base64",
      data: "AAAA",
      mimeType: "image/png",
    });
    expect(() => new MLLMImage()).toThrow(/url/);
  });
});

describe("ToolCorrectnessMetric on lists changed between measures", () => {
  it("scores and explains a case as a fresh copy of it, whatever was remembered", async () => {
    const metrics = [
      new ToolCorrectnessMetric({ evaluationParams: [ToolCallParams.INPUT_PARAMETERS] }),
      new ToolCorrectnessMetric({ shouldConsiderOrdering: true }),
      new ToolCorrectnessMetric({ evaluationParams: [ToolCallParams.OUTPUT] }),
    ];
    const name = fc.constantFrom("a", "b", "c");
    const call = fc.record({
      name,
      inputParameters: fc.record({ x: fc.integer({ min: 0, max: 2 }) }),
    });
    const change = fc.oneof(
      fc.record({ kind: fc.constant("push" as const), call }),
      fc.record({ kind: fc.constant("pop" as const) }),
      fc.record({ kind: fc.constant("rename" as const), name }),
      fc.record({ kind: fc.constant("argument" as const), x: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ kind: fc.constant("output" as const), output: fc.constantFrom("ok", "no") }),
      fc.record({ kind: fc.constant("replace" as const), call }),
      fc.record({ kind: fc.constant("none" as const) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(call, { minLength: 1, maxLength: 4 }),
        fc.array(call, { maxLength: 4 }),
        fc.array(change, { maxLength: 8 }),
        async (expected, called, changes) => {
          const testCase = { input: "q", expectedTools: expected, toolsCalled: called };
          for (const step of changes) {
            const list = testCase.toolsCalled as Record<string, unknown>[];
            if (step.kind === "push") list.push({ ...step.call });
            else if (step.kind === "pop") list.pop();
            else if (step.kind === "replace" && list.length > 0) list[0] = { ...step.call };
            else if (list.length > 0) {
              if (step.kind === "rename") list[0].name = step.name;
              if (step.kind === "argument") list[0].inputParameters = { x: step.x };
              if (step.kind === "output") list[0].output = step.output;
            }
            for (const metric of metrics) {
              // Measured twice: the second measure must not lean on anything the first kept.
              await metric.measure(testCase);
              const score = await metric.measure(testCase);
              const reason = metric.reason;
              const copy = structuredClone(testCase);
              const other = new ToolCorrectnessMetric({
                evaluationParams: [...metric.evaluationParams],
                shouldConsiderOrdering: metric.shouldConsiderOrdering,
              });
              expect(score).toBe(await other.measure(copy));
              expect(reason).toBe(other.reason);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
