/**
 * Writes the example dataset: 64 runs of a travel assistant with six tools, recorded in four
 * transcript formats (toolscore's own call lists, OpenAI Chat Completions, OpenAI Responses and
 * Anthropic Messages inline, Gemini in files under transcripts/), each with the calls it should
 * have made. Most runs are right; some pass a wrong date, skip a step, call a tool twice, book
 * before searching or pick the wrong tool. A few hold a receipt image as context.
 *
 * Deterministic: run `node examples/travel-agent/generate.mjs` to write the same files again.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const here = new URL(".", import.meta.url);
mkdirSync(new URL("transcripts/", here), { recursive: true });
mkdirSync(new URL("images/", here), { recursive: true });

const cities = [
  ["Paris", "CDG"],
  ["Oslo", "OSL"],
  ["Lisbon", "LIS"],
  ["Tokyo", "HND"],
  ["Nairobi", "NBO"],
  ["Lima", "LIM"],
  ["Montreal", "YUL"],
  ["Athens", "ATH"],
];
const names = ["Ada", "Grace", "Alan", "Barbara", "Edsger", "Frances", "Ken", "Radia"];

const tools = [
  {
    name: "search_flights",
    description: "Search flights between two airports on a date",
    parameters: {
      type: "object",
      properties: {
        from: { type: "string" },
        to: { type: "string" },
        date: { type: "string", format: "date" },
      },
      required: ["from", "to", "date"],
    },
  },
  {
    name: "get_weather",
    description: "Weather forecast for a city on a date",
    parameters: {
      type: "object",
      properties: { city: { type: "string" }, date: { type: "string", format: "date" } },
      required: ["city", "date"],
    },
  },
  {
    name: "book_flight",
    description: "Book a flight found by search_flights",
    parameters: {
      type: "object",
      properties: { flight_id: { type: "string" }, passenger: { type: "string" } },
      required: ["flight_id", "passenger"],
    },
  },
  {
    name: "find_hotels",
    description: "Hotels in a city for some nights",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string" },
        check_in: { type: "string", format: "date" },
        nights: { type: "integer" },
      },
      required: ["city", "check_in", "nights"],
    },
  },
  {
    name: "convert_currency",
    description: "Convert an amount between currencies",
    parameters: {
      type: "object",
      properties: {
        amount: { type: "number" },
        from: { type: "string" },
        to: { type: "string" },
      },
      required: ["amount", "from", "to"],
    },
  },
  {
    name: "send_confirmation",
    description: "Email a booking confirmation",
    parameters: {
      type: "object",
      properties: { email: { type: "string" }, booking_id: { type: "string" } },
      required: ["email", "booking_id"],
    },
  },
];

/** One scenario: the request, the calls expected, and the answer. */
function scenario(kind, i) {
  const [city, airport] = cities[i % cities.length];
  const [, home] = cities[(i + 3) % cities.length];
  const day = String(3 + (i % 20)).padStart(2, "0");
  const date = `2026-06-${day}`;
  const passenger = names[i % names.length];
  const flight = `TS${100 + i}`;
  const email = `${passenger.toLowerCase()}@example.com`;
  switch (kind) {
    case "weather":
      return {
        input: `What will the weather be in ${city} on ${date}?`,
        calls: [
          {
            name: "get_weather",
            args: { city, date },
            output: { forecast: "sunny", high_c: 18 + (i % 9) },
          },
        ],
        answer: `Sunny in ${city} on ${date}, up to ${18 + (i % 9)}°C.`,
      };
    case "flight":
      return {
        input: `Book ${passenger} on a flight from ${home} to ${airport} on ${date}.`,
        calls: [
          {
            name: "search_flights",
            args: { from: home, to: airport, date },
            output: { flights: [{ id: flight, price_eur: 120 + i }] },
          },
          {
            name: "book_flight",
            args: { flight_id: flight, passenger },
            output: { booking_id: `B-${i}` },
          },
        ],
        answer: `Booked ${flight} for ${passenger}, booking B-${i}.`,
      };
    case "trip":
      return {
        input: `Plan ${passenger}'s trip to ${city} on ${date}: flight from ${home}, 3 nights of hotel, and email the booking to ${email}.`,
        calls: [
          {
            name: "search_flights",
            args: { from: home, to: airport, date },
            output: { flights: [{ id: flight }] },
          },
          {
            name: "book_flight",
            args: { flight_id: flight, passenger },
            output: { booking_id: `B-${i}` },
          },
          {
            name: "find_hotels",
            args: { city, check_in: date, nights: 3 },
            output: { hotels: ["Hotel Central"] },
          },
          {
            name: "send_confirmation",
            args: { email, booking_id: `B-${i}` },
            output: { sent: true },
          },
        ],
        answer: `Flight ${flight} booked, Hotel Central found, confirmation sent to ${email}.`,
      };
    default:
      return {
        input: `How much is ${100 + i} EUR in JPY, and what is the weather in ${city} on ${date}?`,
        calls: [
          {
            name: "convert_currency",
            args: { amount: 100 + i, from: "EUR", to: "JPY" },
            output: { amount: (100 + i) * 160 },
          },
          { name: "get_weather", args: { city, date }, output: { forecast: "cloudy" } },
        ],
        answer: `${100 + i} EUR is ${(100 + i) * 160} JPY; cloudy in ${city}.`,
      };
  }
}

/** What the agent did instead of the expected calls, for the runs that go wrong. */
function mistake(kind, calls, i) {
  const copy = calls.map((call) => ({ ...call, args: { ...call.args } }));
  switch (kind) {
    case "wrong-date": {
      const dated = copy.find((call) => "date" in call.args || "check_in" in call.args);
      if (dated) {
        const key = "date" in dated.args ? "date" : "check_in";
        dated.args[key] = dated.args[key].replace("2026-06", "2026-07");
      }
      return copy;
    }
    case "skipped-step":
      return copy.length > 1 ? copy.slice(0, -1) : [];
    case "called-twice":
      return [...copy, { ...copy[0] }];
    case "out-of-order":
      return copy.length > 1 ? [copy[1], copy[0], ...copy.slice(2)] : copy;
    case "wrong-tool":
      return copy.map((call, at) =>
        at === 0
          ? {
              name: "find_hotels",
              args: { city: cities[i % cities.length][0], check_in: "2026-06-01", nights: 1 },
              output: { hotels: [] },
            }
          : call,
      );
    default:
      return copy;
  }
}

let callId = 0;
const nextId = () => `call_${String(++callId).padStart(4, "0")}`;

const formats = {
  toolscore: (input, calls) => ({
    input,
    toolsCalled: calls.map((call) => ({
      name: call.name,
      inputParameters: call.args,
      output: call.output,
    })),
  }),
  "openai-chat": (input, calls, answer) => {
    const ids = calls.map(nextId);
    return {
      trajectory: [
        { role: "system", content: "You are a travel assistant." },
        { role: "user", content: input },
        {
          role: "assistant",
          content: null,
          tool_calls: calls.map((call, at) => ({
            id: ids[at],
            type: "function",
            function: { name: call.name, arguments: JSON.stringify(call.args) },
          })),
        },
        ...calls.map((call, at) => ({
          role: "tool",
          tool_call_id: ids[at],
          content: JSON.stringify(call.output),
        })),
        { role: "assistant", content: answer },
      ],
    };
  },
  "openai-responses": (input, calls, answer) => {
    const ids = calls.map(nextId);
    return {
      trajectory: {
        input: [{ role: "user", content: input }],
        output: [
          ...calls.flatMap((call, at) => [
            {
              type: "function_call",
              call_id: ids[at],
              name: call.name,
              arguments: JSON.stringify(call.args),
            },
            { type: "function_call_output", call_id: ids[at], output: JSON.stringify(call.output) },
          ]),
          { type: "message", role: "assistant", content: [{ type: "output_text", text: answer }] },
        ],
      },
    };
  },
  anthropic: (input, calls, answer) => {
    const ids = calls.map(nextId);
    return {
      trajectory: [
        { role: "user", content: input },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Let me take care of that." },
            ...calls.map((call, at) => ({
              type: "tool_use",
              id: ids[at],
              name: call.name,
              input: call.args,
            })),
          ],
        },
        {
          role: "user",
          content: calls.map((call, at) => ({
            type: "tool_result",
            tool_use_id: ids[at],
            content: JSON.stringify(call.output),
          })),
        },
        { role: "assistant", content: [{ type: "text", text: answer }] },
      ],
    };
  },
  gemini: (input, calls, answer, id) => {
    const file = `transcripts/${id}.gemini.json`;
    writeFileSync(
      new URL(file, here),
      `${JSON.stringify(
        {
          contents: [
            { role: "user", parts: [{ text: input }] },
            {
              role: "model",
              parts: calls.map((call) => ({ functionCall: { name: call.name, args: call.args } })),
            },
            {
              role: "user",
              parts: calls.map((call) => ({
                functionResponse: { name: call.name, response: { output: call.output } },
              })),
            },
            { role: "model", parts: [{ text: answer }] },
          ],
        },
        null,
        2,
      )}\n`,
    );
    return { trajectoryFile: file };
  },
};

/** A small PNG (a receipt-coloured card with stripes), written without an image library. */
function png(width, height) {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = [];
  for (let y = 0; y < height; y++) {
    const row = [0];
    for (let x = 0; x < width; x++) {
      const line = y % 12 < 2 && x > 8 && x < width - 8;
      row.push(line ? 90 : 250, line ? 90 : 246, line ? 110 : 232);
    }
    rows.push(Buffer.from(row));
  }
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
writeFileSync(new URL("images/receipt.png", here), png(96, 128));

const kinds = ["weather", "flight", "trip", "money"];
const formatNames = Object.keys(formats);
const mistakes = ["wrong-date", "skipped-step", "called-twice", "out-of-order", "wrong-tool"];
const lines = [];
for (let i = 0; i < 64; i++) {
  const kind = kinds[i % kinds.length];
  const { input, calls, answer } = scenario(kind, i);
  const id = `${kind}-${String(i + 1).padStart(2, "0")}`;
  // Every third run goes wrong, in one of five ways.
  const wrong = i % 3 === 2 ? mistakes[Math.floor(i / 3) % mistakes.length] : undefined;
  const made = wrong === undefined ? calls : mistake(wrong, calls, i);
  const format = formatNames[i % formatNames.length];
  const line = {
    id,
    ...formats[format](input, made, answer, id),
    ...(format === "toolscore" ? { actualOutput: answer } : {}),
    expectedTools: calls.map((call) => ({ name: call.name, inputParameters: call.args })),
    availableTools: tools,
    metadata: { scenario: kind, format, ...(wrong === undefined ? {} : { mistake: wrong }) },
  };
  if (kind === "money" && i % 8 === 3) {
    line.retrievedContexts = [`Receipt: ${100 + i} EUR at a cafe.`, "images/receipt.png"];
  }
  lines.push(JSON.stringify(line));
}
writeFileSync(new URL("dataset.jsonl", here), `${lines.join("\n")}\n`);
console.log(`wrote ${lines.length} runs to examples/travel-agent/dataset.jsonl`);
