import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MediaLoadError } from "../core/errors.js";
import type { MediaLoadReason } from "../core/errors.js";
import type { ImageSource } from "../core/test-case.js";
import { sniffImage } from "../media/sniff-image.js";
import { makeImage, makeNoise } from "../../test/support/images.js";
import { loadImage } from "./load-image.js";
import type { ImageLoadOptions } from "./load-image.js";

async function reason(
  source: ImageSource,
  options: ImageLoadOptions = {},
): Promise<{ reason: MediaLoadReason; message: string }> {
  try {
    await loadImage(source, options);
  } catch (error) {
    if (MediaLoadError.isInstance(error)) return { reason: error.reason, message: error.message };
    throw error;
  }
  throw new Error("expected the load to fail");
}

describe("loadImage: base64 and data URIs", () => {
  it("reads every accepted format from its bytes", async () => {
    for (const [format, mediaType] of [
      ["png", "image/png"],
      ["jpeg", "image/jpeg"],
      ["gif", "image/gif"],
    ] as const) {
      const bytes = await makeImage(format, 6, 4);
      const loaded = await loadImage({ kind: "base64", data: bytes.toString("base64") });
      expect(loaded).toMatchObject({ mediaType, width: 6, height: 4, bytes: bytes.length });
      expect(loaded.changed).toBeUndefined();
    }
    const webp = await loadImage({
      kind: "url",
      url: `data:image/webp;base64,${(await makeImage("webp", 1, 1)).toString("base64")}`,
    });
    expect(webp).toMatchObject({ mediaType: "image/webp", width: 1, height: 1 });
  });

  it("converts BMP to PNG", async () => {
    const loaded = await loadImage({
      kind: "base64",
      data: (await makeImage("bmp", 5, 3)).toString("base64"),
    });
    expect(loaded).toMatchObject({
      mediaType: "image/png",
      width: 5,
      height: 3,
      changed: "bmp-to-png",
    });
    expect(sniffImage(Buffer.from(loaded.base64, "base64"))).toMatchObject({
      ok: true,
      mediaType: "image/png",
    });
  });

  it("trusts the bytes, not the declared type", async () => {
    const pngBytes = (await makeImage("png")).toString("base64");
    expect(
      await loadImage({ kind: "url", url: `data:image/jpeg;base64,${pngBytes}` }),
    ).toMatchObject({ mediaType: "image/png" });
    const html = Buffer.from("<html>hello</html>").toString("base64");
    expect(await reason({ kind: "base64", data: html, mimeType: "image/png" })).toMatchObject({
      reason: "not-an-image",
    });
    expect(await reason({ kind: "base64", data: "%%%not base64%%%" })).toMatchObject({
      reason: "not-an-image",
    });
  });

  it("refuses corrupt images", async () => {
    const bytes = await makeImage("png", 8, 8);
    expect(
      await reason({
        kind: "base64",
        data: bytes.subarray(0, bytes.length - 16).toString("base64"),
      }),
    ).toMatchObject({
      reason: "not-an-image",
      message: expect.stringMatching(/truncated/) as unknown,
    });
  });

  it("refuses images over the limits, or scales them down on request", async () => {
    const noise = await makeNoise(300, 200);
    const data = noise.toString("base64");
    expect(await reason({ kind: "base64", data }, { maxBytes: 20_000 })).toMatchObject({
      reason: "too-large",
    });
    expect(await reason({ kind: "base64", data }, { maxSide: 100 })).toMatchObject({
      message: expect.stringMatching(/300×200 pixels.*downscale: true/) as unknown,
    });
    const smaller = await loadImage(
      { kind: "base64", data },
      { maxBytes: 20_000, maxSide: 100, downscale: true },
    );
    expect(smaller).toMatchObject({ mediaType: "image/jpeg", changed: "downscaled" });
    expect(smaller.bytes).toBeLessThanOrEqual(20_000);
    expect(Math.max(smaller.width, smaller.height)).toBeLessThanOrEqual(100);
    expect(sniffImage(Buffer.from(smaller.base64, "base64"))).toMatchObject({
      ok: true,
      width: smaller.width,
    });
  });

  it("applies the provider's own per-image limit", async () => {
    const big = Buffer.alloc(6 * 1024 * 1024);
    expect(
      await reason({ kind: "base64", data: big.toString("base64") }, { provider: "anthropic" }),
    ).toMatchObject({
      reason: "too-large",
      message: expect.stringMatching(/5242880-byte limit/) as unknown,
    });
  });
});

describe("loadImage: local files", () => {
  let root: string;
  let outside: string;
  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), "toolscore-images-"));
    outside = mkdtempSync(path.join(tmpdir(), "toolscore-outside-"));
    mkdirSync(path.join(root, "cases"));
    writeFileSync(path.join(root, "cases", "chart.png"), await makeImage("png", 3, 3));
    writeFileSync(path.join(outside, "secret.png"), await makeImage("png", 2, 2));
    writeFileSync(path.join(root, "cases", "notes.png"), "just text, named .png");
    symlinkSync(path.join(outside, "secret.png"), path.join(root, "cases", "link.png"));
    symlinkSync(outside, path.join(root, "cases", "linked-folder"));
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it("reads files under the allowed folder, relative to the base directory", async () => {
    const loaded = await loadImage(
      { kind: "path", path: "cases/chart.png" },
      { baseDirectory: root },
    );
    expect(loaded).toMatchObject({ mediaType: "image/png", width: 3, origin: "cases/chart.png" });
  });

  it("refuses path traversal and symlink escapes, naming where they lead", async () => {
    const options = { baseDirectory: root };
    const traversal = await reason(
      { kind: "path", path: `../${path.basename(outside)}/secret.png` },
      options,
    );
    expect(traversal).toMatchObject({
      reason: "refused-path",
      message: expect.stringMatching(/outside the allowed folders/) as unknown,
    });
    expect(
      await reason({ kind: "path", path: path.join(outside, "secret.png") }, options),
    ).toMatchObject({ reason: "refused-path" });
    expect(await reason({ kind: "path", path: "cases/link.png" }, options)).toMatchObject({
      reason: "refused-path",
    });
    expect(
      await reason({ kind: "path", path: "cases/linked-folder/secret.png" }, options),
    ).toMatchObject({ reason: "refused-path" });
    // Allowed explicitly, the same file loads.
    const allowed = await loadImage(
      { kind: "path", path: "cases/link.png" },
      { ...options, allowedRoots: [root, outside] },
    );
    expect(allowed.width).toBe(2);
  });

  it("reports missing files and files that are not images", async () => {
    expect(
      await reason({ kind: "path", path: "cases/missing.png" }, { baseDirectory: root }),
    ).toMatchObject({ reason: "not-found" });
    expect(
      await reason({ kind: "path", path: "cases/notes.png" }, { baseDirectory: root }),
    ).toMatchObject({ reason: "not-an-image" });
  });
});

describe("loadImage: URLs", () => {
  let server: Server;
  let base: string;
  let pngBytes: Buffer;
  const allow = { allowAddresses: ["127.0.0.1/32"] };
  beforeAll(async () => {
    pngBytes = await makeImage("png", 4, 4);
    server = createServer((request, response) => {
      const url = request.url ?? "/";
      if (url === "/a.png") {
        response.writeHead(200, { "content-type": "image/png" }).end(pngBytes);
      } else if (url === "/png-as-text") {
        response.writeHead(200, { "content-type": "text/plain" }).end(pngBytes);
      } else if (url === "/html-as-png") {
        response.writeHead(200, { "content-type": "image/png" }).end("<html>gotcha</html>");
      } else if (url === "/redirect-ok") {
        response.writeHead(302, { location: "/a.png" }).end();
      } else if (url === "/redirect-private") {
        response.writeHead(302, { location: "http://10.0.0.1/a.png" }).end();
      } else if (url === "/redirect-compatible") {
        response.writeHead(302, { location: "http://[::169.254.169.254]/latest/" }).end();
      } else if (url === "/redirect-metadata") {
        response.writeHead(301, { location: "http://169.254.169.254/latest/meta-data/" }).end();
      } else if (url.startsWith("/loop/")) {
        const n = Number(url.slice(6));
        response.writeHead(307, { location: `/loop/${n + 1}` }).end();
      } else if (url === "/slow") {
        response.writeHead(200, { "content-type": "image/png" });
        response.write(pngBytes.subarray(0, 10));
        // ...and the rest never comes.
      } else if (url === "/endless") {
        response.writeHead(200, { "content-type": "image/png" });
        const chunk = Buffer.alloc(64 * 1024, 1);
        const pump = () => {
          while (response.write(chunk)) {
            /* keep writing */
          }
          response.once("drain", pump);
        };
        response.on("close", () => response.removeAllListeners("drain"));
        pump();
      } else if (url === "/announced-huge") {
        response.writeHead(200, {
          "content-type": "image/png",
          "content-length": String(500 * 1024 * 1024),
        });
        response.write(pngBytes);
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("refuses the loopback server unless allowed explicitly", async () => {
    expect(await reason({ kind: "url", url: `${base}/a.png` })).toMatchObject({
      reason: "refused-address",
    });
    expect(await loadImage({ kind: "url", url: `${base}/a.png` }, allow)).toMatchObject({
      mediaType: "image/png",
      width: 4,
    });
  });

  it("reads the type from the bytes, whatever the Content-Type says", async () => {
    expect(await loadImage({ kind: "url", url: `${base}/png-as-text` }, allow)).toMatchObject({
      mediaType: "image/png",
    });
    expect(await reason({ kind: "url", url: `${base}/html-as-png` }, allow)).toMatchObject({
      reason: "not-an-image",
    });
  });

  it("checks every redirect again and caps their number", async () => {
    expect(await loadImage({ kind: "url", url: `${base}/redirect-ok` }, allow)).toMatchObject({
      width: 4,
    });
    expect(await reason({ kind: "url", url: `${base}/redirect-private` }, allow)).toMatchObject({
      reason: "refused-address",
      message: expect.stringMatching(
        /redirected to http:\/\/10\.0\.0\.1\/a\.png: 10\.0\.0\.1 is in the private range/,
      ) as unknown,
    });
    expect(await reason({ kind: "url", url: `${base}/redirect-metadata` }, allow)).toMatchObject({
      reason: "refused-address",
    });
    // An IPv6 spelling of an internal IPv4 address is that address (issue 22, item 3).
    expect(await reason({ kind: "url", url: `${base}/redirect-compatible` }, allow)).toMatchObject({
      reason: "refused-address",
      message: expect.stringMatching(/169\.254\.169\.254 is in the linkLocal range/) as unknown,
    });
    for (const url of ["http://[::127.0.0.1]/a.png", "http://[::10.0.0.1]/a.png"]) {
      expect(await reason({ kind: "url", url })).toMatchObject({ reason: "refused-address" });
    }
    expect(
      await reason({ kind: "url", url: `${base}/loop/0` }, { ...allow, maxRedirects: 3 }),
    ).toMatchObject({
      reason: "too-many-redirects",
    });
  });

  it("gives up on slow and endless responses", async () => {
    const start = performance.now();
    expect(
      await reason({ kind: "url", url: `${base}/slow` }, { ...allow, timeoutMs: 300 }),
    ).toMatchObject({ reason: "timed-out" });
    expect(performance.now() - start).toBeLessThan(2_000);
    expect(
      await reason({ kind: "url", url: `${base}/endless` }, { ...allow, maxBytes: 1024 * 1024 }),
    ).toMatchObject({
      reason: "too-large",
      message: expect.stringMatching(/stopped reading/) as unknown,
    });
    expect(await reason({ kind: "url", url: `${base}/announced-huge` }, allow)).toMatchObject({
      reason: "too-large",
      message: expect.stringMatching(/announces/) as unknown,
    });
    expect(await reason({ kind: "url", url: `${base}/nothing-here` }, allow)).toMatchObject({
      reason: "http-status",
    });
  });

  it("connects to the address it checked, resolving each name once", async () => {
    const port = new URL(base).port;
    const asked: string[] = [];
    const loaded = await loadImage(
      { kind: "url", url: `http://images.invalid:${port}/a.png` },
      {
        ...allow,
        resolve: (host) => {
          asked.push(host);
          return Promise.resolve(["127.0.0.1"]);
        },
      },
    );
    expect(loaded.width).toBe(4);
    expect(asked).toEqual(["images.invalid"]);
    // A name with any internal address among its answers is refused.
    expect(
      await reason(
        { kind: "url", url: `http://mixed.invalid:${port}/a.png` },
        { resolve: () => Promise.resolve(["8.8.8.8", "10.1.2.3"]) },
      ),
    ).toMatchObject({
      reason: "refused-address",
      message: expect.stringMatching(/resolves to 10\.1\.2\.3, in the private range/) as unknown,
    });
  });

  it("refuses localhost through the system resolver", async () => {
    const port = new URL(base).port;
    expect(await reason({ kind: "url", url: `http://localhost:${port}/a.png` })).toMatchObject({
      reason: "refused-address",
    });
  });
});
