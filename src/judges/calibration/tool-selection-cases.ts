/**
 * A labelled set for calibrating tool-selection judges, written for toolscore: fifty requests
 * across seven toolkits, each with the calls an agent made, the score a careful reviewer gives
 * the selection on the judge's own scale (1, 0.75, 0.5, 0.25, 0), and the reasoning behind it.
 * Labels judge the choice of tools only, never the exact arguments.
 */
import type { JsonObject } from "../../core/json.js";
import type { ToolSpec } from "../../core/test-case.js";
import type { ToolSelectionInput } from "../tool-selection.js";

/** A case with the label a reviewer gave its tool selection, and why. */
export interface LabelledToolSelectionCase extends ToolSelectionInput {
  readonly id: string;
  /** The reviewer's score on the judge's scale: 1, 0.75, 0.5, 0.25 or 0. */
  readonly label: number;
  readonly reasoning: string;
}

const tool = (name: string, description: string, properties: Record<string, string>): ToolSpec => ({
  name,
  description,
  parameters: {
    type: "object",
    properties: Object.fromEntries(
      Object.entries(properties).map(([key, type]) => [key, { type }]),
    ) as JsonObject,
    required: Object.keys(properties),
  },
});

const travel = [
  tool("get_weather", "Weather forecast for a city on a date.", { city: "string", date: "string" }),
  tool("search_flights", "Flights between two airports on a date, cheapest first.", {
    from: "string",
    to: "string",
    date: "string",
  }),
  tool("book_flight", "Books a flight found by search_flights.", { flight_id: "string" }),
  tool("search_hotels", "Hotels in a city for a stay.", {
    city: "string",
    check_in: "string",
    nights: "integer",
  }),
  tool("convert_currency", "Converts an amount between currencies at today's rate.", {
    amount: "number",
    from: "string",
    to: "string",
  }),
  tool("web_search", "Searches the web.", { query: "string" }),
];

const shop = [
  tool("lookup_order", "An order's items, status and payment.", { order_id: "string" }),
  tool("refund_order", "Refunds an order, fully or partly.", {
    order_id: "string",
    reason: "string",
  }),
  tool("cancel_order", "Cancels an order that has not shipped.", { order_id: "string" }),
  tool("track_shipment", "Where a parcel is, by tracking number.", { tracking_id: "string" }),
  tool("search_products", "Searches the catalogue.", { query: "string" }),
  tool("send_email", "Sends an email to a customer.", {
    to: "string",
    subject: "string",
    body: "string",
  }),
  tool("escalate_to_human", "Hands the conversation to a human agent.", { summary: "string" }),
];

const bank = [
  tool("get_balance", "The balance of an account.", { account: "string" }),
  tool("list_transactions", "An account's transactions since a date.", {
    account: "string",
    since: "string",
  }),
  tool("transfer_funds", "Moves money between the customer's own accounts.", {
    from: "string",
    to: "string",
    amount: "number",
  }),
  tool("freeze_card", "Blocks a card at once.", { card_last_digits: "string" }),
  tool("get_exchange_rate", "Today's rate between two currencies.", {
    from: "string",
    to: "string",
  }),
];

const office = [
  tool("list_events", "Calendar events on a date.", { date: "string" }),
  tool("create_event", "Creates a calendar event and invites people.", {
    title: "string",
    start: "string",
    minutes: "integer",
    attendees: "array",
  }),
  tool("search_contacts", "Finds a contact's email address by name.", { name: "string" }),
  tool("send_email", "Sends an email.", { to: "string", subject: "string", body: "string" }),
  tool("read_inbox", "Lists emails in the inbox.", { unread_only: "boolean" }),
];

const data = [
  tool("list_tables", "The tables of the analytics database.", {}),
  tool("describe_table", "A table's columns and types.", { table: "string" }),
  tool("run_sql", "Runs a read-only SQL query on the analytics database.", { query: "string" }),
  tool("plot_chart", "Draws a chart from rows of data.", { rows: "array", kind: "string" }),
  tool("calculator", "Evaluates an arithmetic expression.", { expression: "string" }),
];

const ops = [
  tool("get_service_status", "Health and recent incidents of a service.", { service: "string" }),
  tool("read_logs", "Recent log lines of a service.", { service: "string", minutes: "integer" }),
  tool("restart_service", "Restarts a service's instances.", { service: "string" }),
  tool("deploy", "Deploys a version of a service.", { service: "string", version: "string" }),
  tool("rollback", "Rolls a service back to an earlier version.", {
    service: "string",
    version: "string",
  }),
  tool("page_oncall", "Pages the on-call engineer with a message.", { message: "string" }),
];

const research = [
  tool("web_search", "Searches the web.", { query: "string" }),
  tool("fetch_page", "Downloads a web page's text.", { url: "string" }),
  tool("summarize", "Summarizes a text.", { text: "string" }),
  tool("translate", "Translates a text into a language.", { text: "string", to: "string" }),
  tool("wikipedia_lookup", "The summary of a Wikipedia article.", { title: "string" }),
  tool("calculator", "Evaluates an arithmetic expression.", { expression: "string" }),
];

const call = (name: string, inputParameters: JsonObject = {}) => ({ name, inputParameters });

type Draft = Omit<LabelledToolSelectionCase, "availableTools">;
const kit = (
  availableTools: readonly ToolSpec[],
  drafts: readonly Draft[],
): LabelledToolSelectionCase[] => drafts.map((draft) => ({ ...draft, availableTools }));

const weatherQuestion = "What will the weather be in Lisbon tomorrow?";
const bookQuestion = "Book me the cheapest flight from Lyon to Lisbon on May 3.";
const romeQuestion =
  "Plan a weekend in Rome: flights from Paris on Friday, a hotel for two nights, and tell me whether it will rain.";
const refundQuestion = "Order 1182 arrived broken. I want my money back.";
const trackQuestion = "Where is my parcel? The tracking number is 1Z999AA10123456784.";
const humanQuestion = "I want to talk to a person, this chat is not helping.";
const bootsQuestion = "Do you sell waterproof hiking boots in size 44?";
const cancelQuestion = "Cancel order 2231 and email the confirmation to ana@example.com.";
const cardQuestion = "I lost my card ending 4421, block it right now!";
const transferQuestion = "Move 200 euros from my savings to my checking account.";
const meetingQuestion = "Set up a 30-minute call with Dana tomorrow at 10:00.";
const inboxQuestion = "Do I have unread emails from my manager?";
const revenueQuestion = "What was our total revenue in March 2026?";
const signupsQuestion = "Plot monthly sign-ups for 2025 as a bar chart.";
const outageQuestion =
  "The payments service is down. Find out what is wrong and restart it if that helps.";
const rollbackQuestion = "Roll checkout back to v2.3.1 and let the on-call engineer know.";
const translateQuestion = "Translate 'where is the train station?' into Japanese.";
const eiffelQuestion = "When was the Eiffel Tower completed?";

/** The labelled set. */
export const toolSelectionCalibrationSet: readonly LabelledToolSelectionCase[] = [
  ...kit(travel, [
    {
      id: "travel-weather-direct",
      input: weatherQuestion,
      toolsCalled: [call("get_weather", { city: "Lisbon", date: "tomorrow" })],
      label: 1,
      reasoning: "The forecast tool is exactly what the question needs, called once.",
    },
    {
      id: "travel-weather-websearch",
      input: weatherQuestion,
      toolsCalled: [call("web_search", { query: "Lisbon weather tomorrow" })],
      label: 0.5,
      reasoning:
        "A general web search can find a forecast, but the dedicated weather tool was available and fits the only step better: mis-selection of the main step with a workable tool.",
    },
    {
      id: "travel-weather-extra-city",
      input: weatherQuestion,
      toolsCalled: [
        call("get_weather", { city: "Lisbon", date: "tomorrow" }),
        call("get_weather", { city: "Porto", date: "tomorrow" }),
      ],
      label: 0.75,
      reasoning: "Right tool, plus one harmless call for a city nobody asked about.",
    },
    {
      id: "travel-book-complete",
      input: bookQuestion,
      toolsCalled: [
        call("search_flights", { from: "LYS", to: "LIS", date: "2026-05-03" }),
        call("book_flight", { flight_id: "TP441" }),
      ],
      label: 1,
      reasoning:
        "Finding the cheapest flight needs the search; booking it needs book_flight. Both, nothing else.",
    },
    {
      id: "travel-book-no-search",
      input: bookQuestion,
      toolsCalled: [call("book_flight", { flight_id: "TP441" })],
      label: 0.5,
      reasoning:
        "It booked without searching, so nothing shows the flight was the cheapest: one needed tool of two is missing.",
    },
    {
      id: "travel-book-search-only",
      input: bookQuestion,
      toolsCalled: [call("search_flights", { from: "LYS", to: "LIS", date: "2026-05-03" })],
      label: 0.5,
      reasoning:
        "The search was right, but the booking the user asked for never happened: one needed tool of two is missing.",
    },
    {
      id: "travel-book-hotels",
      input: bookQuestion,
      toolsCalled: [call("search_hotels", { city: "Lisbon", check_in: "2026-05-03", nights: 1 })],
      label: 0,
      reasoning:
        "A hotel search has nothing to do with booking a flight; no needed tool was called.",
    },
    {
      id: "travel-rome-complete",
      input: romeQuestion,
      toolsCalled: [
        call("search_flights", { from: "CDG", to: "FCO", date: "2026-06-12" }),
        call("search_hotels", { city: "Rome", check_in: "2026-06-12", nights: 2 }),
        call("get_weather", { city: "Rome", date: "2026-06-13" }),
      ],
      label: 1,
      reasoning: "Three needs, three fitting tools, nothing extra.",
    },
    {
      id: "travel-rome-no-weather",
      input: romeQuestion,
      toolsCalled: [
        call("search_flights", { from: "CDG", to: "FCO", date: "2026-06-12" }),
        call("search_hotels", { city: "Rome", check_in: "2026-06-12", nights: 2 }),
      ],
      label: 0.5,
      reasoning:
        "Flights and hotel are right, but the rain question went unanswered: one needed tool of three missing.",
    },
    {
      id: "travel-currency-direct",
      input: "How much is 250 US dollars in euros?",
      toolsCalled: [call("convert_currency", { amount: 250, from: "USD", to: "EUR" })],
      label: 1,
      reasoning: "One conversion, the conversion tool.",
    },
    {
      id: "travel-currency-extra",
      input: "How much is 250 US dollars in euros?",
      toolsCalled: [
        call("convert_currency", { amount: 250, from: "USD", to: "EUR" }),
        call("get_weather", { city: "Frankfurt", date: "today" }),
      ],
      label: 0.75,
      reasoning: "The right tool, plus one irrelevant but harmless call.",
    },
    {
      id: "travel-thanks-no-call",
      input: "Great, thanks, that's all I needed!",
      toolsCalled: [],
      label: 1,
      reasoning: "A thank-you needs no tool, and none was called.",
    },
  ]),
  ...kit(shop, [
    {
      id: "shop-refund-complete",
      input: refundQuestion,
      toolsCalled: [
        call("lookup_order", { order_id: "1182" }),
        call("refund_order", { order_id: "1182", reason: "arrived damaged" }),
      ],
      label: 1,
      reasoning: "Checking the order, then refunding it: the two tools the request needs.",
    },
    {
      id: "shop-refund-lookup-only",
      input: refundQuestion,
      toolsCalled: [call("lookup_order", { order_id: "1182" })],
      label: 0.25,
      reasoning:
        "The lookup was useful, but the refund, the whole point of the request, never happened.",
    },
    {
      id: "shop-refund-cancel",
      input: refundQuestion,
      toolsCalled: [call("cancel_order", { order_id: "1182" })],
      label: 0,
      reasoning:
        "Cancelling an order that has already arrived does not refund it: the main step used the wrong tool and nothing useful was done.",
    },
    {
      id: "shop-track-direct",
      input: trackQuestion,
      toolsCalled: [call("track_shipment", { tracking_id: "1Z999AA10123456784" })],
      label: 1,
      reasoning: "A tracking number goes to the tracking tool.",
    },
    {
      id: "shop-track-lookup",
      input: trackQuestion,
      toolsCalled: [call("lookup_order", { order_id: "1Z999AA10123456784" })],
      label: 0.25,
      reasoning:
        "An order lookup is not meant for tracking numbers; it may show a status, but the tracking tool was the fit.",
    },
    {
      id: "shop-human-escalate",
      input: humanQuestion,
      toolsCalled: [call("escalate_to_human", { summary: "Customer asks for a person." })],
      label: 1,
      reasoning: "The user asked for a person and got the hand-over tool.",
    },
    {
      id: "shop-human-products",
      input: humanQuestion,
      toolsCalled: [call("search_products", { query: "person" })],
      label: 0,
      reasoning: "A catalogue search has nothing to do with the request.",
    },
    {
      id: "shop-boots-direct",
      input: bootsQuestion,
      toolsCalled: [call("search_products", { query: "waterproof hiking boots size 44" })],
      label: 1,
      reasoning: "A product question, answered from the catalogue.",
    },
    {
      id: "shop-boots-repeated",
      input: bootsQuestion,
      toolsCalled: [
        call("search_products", { query: "waterproof hiking boots size 44" }),
        call("search_products", { query: "waterproof hiking boots size 44" }),
      ],
      label: 0.75,
      reasoning: "Right tool, but the identical search was repeated for no reason.",
    },
    {
      id: "shop-cancel-and-email",
      input: cancelQuestion,
      toolsCalled: [
        call("cancel_order", { order_id: "2231" }),
        call("send_email", { to: "ana@example.com", subject: "Order 2231 cancelled", body: "..." }),
      ],
      label: 1,
      reasoning: "Two asks, the two fitting tools.",
    },
    {
      id: "shop-cancel-no-email",
      input: cancelQuestion,
      toolsCalled: [call("cancel_order", { order_id: "2231" })],
      label: 0.5,
      reasoning: "The cancellation happened; the confirmation email the user asked for did not.",
    },
  ]),
  ...kit(bank, [
    {
      id: "bank-balance-direct",
      input: "What's the balance of my checking account?",
      toolsCalled: [call("get_balance", { account: "checking" })],
      label: 1,
      reasoning: "The balance tool answers a balance question.",
    },
    {
      id: "bank-balance-transactions",
      input: "What's the balance of my checking account?",
      toolsCalled: [call("list_transactions", { account: "checking", since: "2026-01-01" })],
      label: 0.25,
      reasoning:
        "A balance could be pieced together from transactions, badly; the balance tool was there and fits.",
    },
    {
      id: "bank-card-freeze",
      input: cardQuestion,
      toolsCalled: [call("freeze_card", { card_last_digits: "4421" })],
      label: 1,
      reasoning: "An urgent block, done with the blocking tool and nothing else.",
    },
    {
      id: "bank-card-extras",
      input: cardQuestion,
      toolsCalled: [
        call("get_balance", { account: "checking" }),
        call("list_transactions", { account: "checking", since: "2026-11-01" }),
        call("freeze_card", { card_last_digits: "4421" }),
      ],
      label: 0.5,
      reasoning:
        "The card was blocked, but only after two calls the request did not need, which delayed an urgent action: several unnecessary calls.",
    },
    {
      id: "bank-transfer-direct",
      input: transferQuestion,
      toolsCalled: [call("transfer_funds", { from: "savings", to: "checking", amount: 200 })],
      label: 1,
      reasoning: "A transfer between own accounts, with the transfer tool.",
    },
    {
      id: "bank-transfer-rate",
      input: transferQuestion,
      toolsCalled: [
        call("get_exchange_rate", { from: "EUR", to: "EUR" }),
        call("transfer_funds", { from: "savings", to: "checking", amount: 200 }),
      ],
      label: 0.75,
      reasoning:
        "The transfer is right; the exchange rate between euros and euros was one needless call.",
    },
    {
      id: "bank-transfer-freeze",
      input: transferQuestion,
      toolsCalled: [call("freeze_card", { card_last_digits: "0000" })],
      label: 0,
      reasoning: "Blocking a card is unrelated to a transfer, and harmful.",
    },
  ]),
  ...kit(office, [
    {
      id: "office-meeting-complete",
      input: meetingQuestion,
      toolsCalled: [
        call("search_contacts", { name: "Dana" }),
        call("create_event", {
          title: "Call with Dana",
          start: "tomorrow 10:00",
          minutes: 30,
          attendees: ["dana@example.com"],
        }),
      ],
      label: 1,
      reasoning: "Finding Dana's address, then creating the invitation.",
    },
    {
      id: "office-meeting-check-calendar",
      input: meetingQuestion,
      toolsCalled: [
        call("list_events", { date: "tomorrow" }),
        call("search_contacts", { name: "Dana" }),
        call("create_event", {
          title: "Call with Dana",
          start: "tomorrow 10:00",
          minutes: 30,
          attendees: ["dana@example.com"],
        }),
      ],
      label: 1,
      reasoning:
        "Checking the calendar for a clash before booking is prudent, not superfluous; the rest is right.",
    },
    {
      id: "office-meeting-email",
      input: meetingQuestion,
      toolsCalled: [
        call("search_contacts", { name: "Dana" }),
        call("send_email", {
          to: "dana@example.com",
          subject: "Call tomorrow at 10?",
          body: "...",
        }),
      ],
      label: 0.25,
      reasoning:
        "An email asking about a call is not a calendar invitation; the event tool was available and needed.",
    },
    {
      id: "office-inbox-direct",
      input: inboxQuestion,
      toolsCalled: [call("read_inbox", { unread_only: true })],
      label: 1,
      reasoning: "Unread mail comes from the inbox tool.",
    },
    {
      id: "office-inbox-calendar",
      input: inboxQuestion,
      toolsCalled: [call("list_events", { date: "today" })],
      label: 0,
      reasoning: "The calendar says nothing about unread email.",
    },
  ]),
  ...kit(data, [
    {
      id: "data-revenue-explore",
      input: revenueQuestion,
      toolsCalled: [
        call("list_tables"),
        call("describe_table", { table: "orders" }),
        call("run_sql", { query: "SELECT SUM(amount) FROM orders WHERE ..." }),
      ],
      label: 1,
      reasoning:
        "Learning the schema before querying is a sound way to the one query that answers.",
    },
    {
      id: "data-revenue-direct",
      input: revenueQuestion,
      toolsCalled: [call("run_sql", { query: "SELECT SUM(amount) FROM orders WHERE ..." })],
      label: 1,
      reasoning: "One query answers the question.",
    },
    {
      id: "data-revenue-calculator",
      input: revenueQuestion,
      toolsCalled: [call("calculator", { expression: "1200 + 3400 + 980" })],
      label: 0,
      reasoning:
        "Adding made-up numbers is not querying the revenue; the database was never asked.",
    },
    {
      id: "data-chart-complete",
      input: signupsQuestion,
      toolsCalled: [
        call("run_sql", { query: "SELECT month, COUNT(*) FROM signups ..." }),
        call("plot_chart", { rows: [], kind: "bar" }),
      ],
      label: 1,
      reasoning: "The data comes from the database, the chart from the plotting tool.",
    },
    {
      id: "data-chart-no-query",
      input: signupsQuestion,
      toolsCalled: [call("plot_chart", { rows: [], kind: "bar" })],
      label: 0.5,
      reasoning:
        "The chart tool is right, but without the query there is no data to plot: one needed tool of two missing.",
    },
  ]),
  ...kit(ops, [
    {
      id: "ops-outage-complete",
      input: outageQuestion,
      toolsCalled: [
        call("get_service_status", { service: "payments" }),
        call("read_logs", { service: "payments", minutes: 30 }),
        call("restart_service", { service: "payments" }),
      ],
      label: 1,
      reasoning: "Diagnosis first (status and logs), then the restart the user allowed.",
    },
    {
      id: "ops-outage-restart-only",
      input: outageQuestion,
      toolsCalled: [call("restart_service", { service: "payments" })],
      label: 0.5,
      reasoning:
        "The restart may help, but the user asked to find out what is wrong first, and no diagnostic tool was called.",
    },
    {
      id: "ops-outage-deploy",
      input: outageQuestion,
      toolsCalled: [call("deploy", { service: "payments", version: "latest" })],
      label: 0,
      reasoning:
        "Deploying a new version during an outage is neither diagnosis nor a restart; the needed tools were not called.",
    },
    {
      id: "ops-rollback-complete",
      input: rollbackQuestion,
      toolsCalled: [
        call("rollback", { service: "checkout", version: "v2.3.1" }),
        call("page_oncall", { message: "checkout rolled back to v2.3.1" }),
      ],
      label: 1,
      reasoning: "The rollback tool, then the page: exactly the two asks.",
    },
    {
      id: "ops-rollback-deploy",
      input: rollbackQuestion,
      toolsCalled: [
        call("deploy", { service: "checkout", version: "v2.3.1" }),
        call("page_oncall", { message: "checkout on v2.3.1" }),
      ],
      label: 0.75,
      reasoning:
        "Deploying the old version gets the same result, but the rollback tool was the better fit for that step.",
    },
  ]),
  ...kit(research, [
    {
      id: "research-translate-direct",
      input: translateQuestion,
      toolsCalled: [call("translate", { text: "where is the train station?", to: "ja" })],
      label: 1,
      reasoning: "A translation, with the translation tool.",
    },
    {
      id: "research-translate-search",
      input: translateQuestion,
      toolsCalled: [call("web_search", { query: "where is the train station in Japanese" })],
      label: 0.5,
      reasoning:
        "A search may turn up a translation, but the translation tool was available for the only step.",
    },
    {
      id: "research-eiffel-wikipedia",
      input: eiffelQuestion,
      toolsCalled: [call("wikipedia_lookup", { title: "Eiffel Tower" })],
      label: 1,
      reasoning: "An encyclopedic fact, from the encyclopedia tool.",
    },
    {
      id: "research-eiffel-long-way",
      input: eiffelQuestion,
      toolsCalled: [
        call("web_search", { query: "Eiffel Tower completed" }),
        call("fetch_page", { url: "https://en.wikipedia.org/wiki/Eiffel_Tower" }),
        call("summarize", { text: "..." }),
      ],
      label: 0.75,
      reasoning:
        "It gets there, but summarizing a whole page for one date was an extra step; the Wikipedia tool would have done it directly.",
    },
    {
      id: "research-percent-calculator",
      input: "What is 17% of 2,340?",
      toolsCalled: [call("calculator", { expression: "0.17 * 2340" })],
      label: 1,
      reasoning: "Arithmetic, with the calculator.",
    },
  ]),
];
