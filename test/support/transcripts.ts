/** Small transcripts of one agent turn, in two providers' formats, shared by tests. */
export const openAiRun = [
  { role: "user", content: "Weather in Paris?" },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      {
        id: "c1",
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Paris"}' },
      },
    ],
  },
  { role: "tool", tool_call_id: "c1", content: "18C" },
  { role: "assistant", content: "18C in Paris." },
];

export const anthropicRun = [
  { role: "user", content: "Weather in Oslo?" },
  {
    role: "assistant",
    content: [{ type: "tool_use", id: "t1", name: "get_weather", input: { city: "Oslo" } }],
  },
  { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "3C" }] },
];
