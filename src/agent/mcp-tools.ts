/**
 * Simulated tools served over MCP, through the official MCP TypeScript SDK (an optional peer
 * dependency, loaded on first use): over stdio for `toolscore simulate-tools`, and over streamable
 * HTTP on the loopback address, one path per toolbox, for `simulate-tools --http` and for the
 * agents `eval --agent` runs.
 */
import { createServer } from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Readable, Writable } from "node:stream";
import { InvalidInputError } from "../core/errors.js";
import { loadOptional } from "../core/optional-dependency.js";
import { isJsonObject } from "../core/json.js";
import type { Toolbox } from "./toolbox.js";

const sdkDependency = {
  feature: "simulated tools over MCP",
  packages: ["@modelcontextprotocol/sdk", "zod"],
};

async function loadSdk() {
  return loadOptional(sdkDependency, async () => {
    const [server, types, stdio, http] = await Promise.all([
      import("@modelcontextprotocol/sdk/server/index.js"),
      import("@modelcontextprotocol/sdk/types.js"),
      import("@modelcontextprotocol/sdk/server/stdio.js"),
      import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    ]);
    return { ...server, ...types, ...stdio, ...http };
  });
}

type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/**
 * Loads the MCP SDK, or throws `MissingDependencyError` naming it: for a run to fail as it is set
 * up, before any case runs, rather than at its first run that serves tools over MCP.
 */
export async function requireMcpSdk(): Promise<void> {
  await loadSdk();
}

/** An MCP server answering `tools/list` and `tools/call` from `toolbox`. */
function mcpServer(sdk: Sdk, toolbox: Toolbox) {
  // The low-level server: McpServer takes zod schemas, and these tools come with JSON Schemas.
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the SDK's way for raw schemas
  const server = new sdk.Server(
    { name: "toolscore-simulated-tools", version: "1.0.0" },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(sdk.ListToolsRequestSchema, () => ({
    tools: toolbox.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      inputSchema: (tool.parameters ?? { type: "object" }) as { type: "object" },
      ...(tool.outputSchema === undefined
        ? {}
        : { outputSchema: tool.outputSchema as { type: "object" } }),
      ...(tool.readOnly === undefined
        ? {}
        : { annotations: { readOnlyHint: tool.readOnly, destructiveHint: !tool.readOnly } }),
    })),
  }));
  const declared = new Set(
    toolbox.tools.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name),
  );
  server.setRequestHandler(sdk.CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const result = await toolbox.call(name, args, extra.signal);
    // A tool that declares its output's schema answers an object as structured content too.
    const structured = !result.isError && declared.has(name) ? result.output : undefined;
    return {
      content: [{ type: "text" as const, text: result.text }],
      ...(result.isError ? { isError: true } : {}),
      ...(isJsonObject(structured) ? { structuredContent: structured } : {}),
    };
  });
  return server;
}

/** A server of simulated tools while it runs. */
export interface ToolServer {
  /** Resolves when the client went away (stdio) or the server was closed. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/** Serves `toolbox` over stdio (the MCP client spoke on `stdin`, is answered on `stdout`). */
export async function serveToolsOverStdio(
  toolbox: Toolbox,
  streams: { readonly stdin: Readable; readonly stdout: Writable },
): Promise<ToolServer> {
  const sdk = await loadSdk();
  const server = mcpServer(sdk, toolbox);
  const transport = new sdk.StdioServerTransport(streams.stdin, streams.stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
    streams.stdin.once("end", resolve);
  });
  await server.connect(transport);
  return { closed, close: () => server.close() };
}

/** Toolboxes served over streamable HTTP, each at a path of its own. */
export interface HttpToolServer extends ToolServer {
  /** The server's address: `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** Serves `toolbox` at `path` (`/mcp`); the URL an MCP client connects to, and how to stop. */
  add(path: string, toolbox: Toolbox): { readonly url: string; readonly remove: () => void };
}

/**
 * Starts an HTTP server on the loopback address (`port` 0: any free one) serving MCP's
 * streamable HTTP transport: each request is answered by a new stateless server over the
 * toolbox at its path (the toolbox keeps the run's state), with JSON responses.
 */
export async function startHttpToolServer(options: {
  readonly port: number;
  readonly host?: string;
}): Promise<HttpToolServer> {
  const sdk = await loadSdk();
  const host = options.host ?? "127.0.0.1";
  const toolboxes = new Map<string, Toolbox>();
  let allowedHosts: string[] = [];
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const toolbox = toolboxes.get(path);
    if (toolbox === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end(`no tools at ${path}\n`);
      return;
    }
    const server = mcpServer(sdk, toolbox);
    const transport = new sdk.StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      // Only this machine's names: a page elsewhere cannot reach the tools by rebinding DNS.
      enableDnsRebindingProtection: true,
      allowedHosts,
    });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  };
  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end(`${error instanceof Error ? error.message : String(error)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  allowedHosts = [`${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`];
  const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  let resolveClosed = (): void => undefined;
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  return {
    origin,
    closed,
    add(path, toolbox) {
      toolboxes.set(path, toolbox);
      return {
        url: `${origin}${path}`,
        remove: () => {
          toolboxes.delete(path);
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => {
          resolveClosed();
          resolve();
        });
      }),
  };
}

/**
 * The tools an MCP server lists (`tools/list`, page after page), asked over stdio of `command`
 * run through the shell in `cwd`, with the official SDK's client; the server is stopped after.
 * A server that does not answer within `timeoutMs` is an error saying so, with its stderr's end.
 */
export async function listServerTools(
  command: string,
  options: {
    readonly cwd: string;
    readonly env: Readonly<Record<string, string | undefined>>;
    readonly timeoutMs: number;
  },
): Promise<unknown[]> {
  const sdk = await loadOptional(
    { ...sdkDependency, feature: "an MCP server's tools" },
    async () => {
      const [client, stdio] = await Promise.all([
        import("@modelcontextprotocol/sdk/client/index.js"),
        import("@modelcontextprotocol/sdk/client/stdio.js"),
      ]);
      return { ...client, ...stdio };
    },
  );
  const shell =
    process.platform === "win32"
      ? { command: process.env.ComSpec ?? "cmd.exe", args: ["/d", "/s", "/c", command] }
      : { command: "/bin/sh", args: ["-c", command] };
  const env = Object.fromEntries(
    Object.entries(options.env).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  const transport = new sdk.StdioClientTransport({
    ...shell,
    cwd: options.cwd,
    env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString("utf8")).slice(-2000);
  });
  const client = new sdk.Client({ name: "toolscore-lint-tools", version: "1.0.0" });
  const deadline = AbortSignal.timeout(options.timeoutMs);
  try {
    await client.connect(transport, { signal: deadline, timeout: options.timeoutMs });
    const tools: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
        signal: deadline,
        timeout: options.timeoutMs,
      });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  } catch (error) {
    const said =
      stderr.trim() === "" ? "" : `; it said: ${stderr.trim().split("\n").slice(-5).join(" | ")}`;
    throw new InvalidInputError({
      field: "command",
      message: `the MCP server ${JSON.stringify(command)} did not list its tools: ${error instanceof Error ? error.message : String(error)}${said}`,
      cause: error,
    });
  } finally {
    await client.close().catch(() => undefined);
  }
}
