import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "./errors.js";
import { createNameNormalizer, normalizeToolName } from "./normalize-tool-name.js";

describe("normalizeToolName", () => {
  it.each([
    ["delegate_to_sql_query_agent_xg7c", "delegate_to_sql_query_agent"],
    ["delegate_to_sql_query_agent_zor2", "delegate_to_sql_query_agent"],
    ["search_A1b2", "search"],
    ["get_user_data", "get_user_data"],
    ["get_user_name", "get_user_name"],
    ["agent_nxle", "agent_nxle"],
    ["report_2024", "report_2024"],
    ["search_ab12x", "search_ab12x"],
    ["_ab12", "_ab12"],
    ["plain", "plain"],
  ])("%s -> %s", (name, normalized) => {
    expect(normalizeToolName(name)).toBe(normalized);
  });

  it("strips MCP prefixes on request", () => {
    const normalize = createNameNormalizer({ stripMcpPrefix: true });
    expect(normalize("mcp__github__create_issue")).toBe("create_issue");
    expect(normalize("mcp__my_server__do_thing")).toBe("do_thing");
    expect(normalize("github.create_issue")).toBe("create_issue");
    expect(normalize("create_issue")).toBe("create_issue");
    expect(normalizeToolName("mcp__github__create_issue")).toBe("mcp__github__create_issue");
  });

  it("applies aliases to the original and the normalized name", () => {
    const normalize = createNameNormalizer({
      aliases: { web_search_v2: "web_search", lookup: "search" },
    });
    expect(normalize("web_search_v2")).toBe("web_search");
    expect(normalize("lookup_x9y8")).toBe("search");
  });

  it("lets a custom rule replace the built-in ones", () => {
    const normalize = createNameNormalizer({
      normalize: (name) => name.toLowerCase(),
      aliases: { fetch: "get" },
    });
    expect(normalize("Search_A1B2")).toBe("search_a1b2");
    expect(normalize("FETCH")).toBe("get");
    expect(createNameNormalizer({ dynamicSuffix: false })("agent_xg7c")).toBe("agent_xg7c");
  });

  it("refuses bad options", () => {
    expect(() => createNameNormalizer({ normalize: "lower" as never })).toThrow(InvalidOptionError);
    expect(() => createNameNormalizer({ aliases: { a: 1 as never } })).toThrow(/aliases\.a/);
    expect(() => createNameNormalizer({ normalize: () => 5 as never })("x")).toThrow(
      /must return a string/,
    );
  });

  it("writes dots as underscores on request, before aliases", () => {
    const normalize = createNameNormalizer({
      dottedNames: "underscore",
      dynamicSuffix: false,
      aliases: { math_hypot: "hypot" },
    });
    expect(normalize("math.factorial")).toBe("math_factorial");
    expect(normalize("a.b.c")).toBe("a_b_c");
    expect(normalize("math.hypot")).toBe("hypot");
    expect(createNameNormalizer()("math.factorial")).toBe("math.factorial");
  });
});
