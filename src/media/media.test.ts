import { describe, expect, it } from "vitest";
import { makeImage } from "../../test/support/images.js";
import { checkAddress } from "./address-policy.js";
import { classifyContext } from "./classify-context.js";
import { imageLimitsFor } from "./limits.js";
import { base64ImageType, sniffImage } from "./sniff-image.js";
import { checkImageUrl } from "./url-policy.js";

describe("sniffImage", () => {
  const formats = [
    ["png", "image/png"],
    ["jpeg", "image/jpeg"],
    ["gif", "image/gif"],
    ["bmp", "image/bmp"],
  ] as const;
  for (const [format, mediaType] of formats) {
    it(`reads a ${format}'s type and size from its bytes`, async () => {
      expect(sniffImage(await makeImage(format, 7, 5))).toEqual({
        ok: true,
        mediaType,
        width: 7,
        height: 5,
      });
    });
  }

  it("tells base64 data's type from its first bytes, as providers need it", async () => {
    for (const [format, mediaType] of [...formats, ["webp", "image/webp"] as const]) {
      const data = Buffer.from(await makeImage(format, 1, 1)).toString("base64");
      expect(base64ImageType(data), format).toBe(mediaType);
    }
    // A RIFF file that is not WebP (a WAV), text, and what is not base64 at all.
    expect(base64ImageType(Buffer.from("RIFF\x24\0\0\0WAVEfmt ").toString("base64"))).toBe(
      undefined,
    );
    expect(base64ImageType(Buffer.from("hello, world").toString("base64"))).toBe(undefined);
    expect(base64ImageType("not base64!")).toBe(undefined);
  });

  it("reads a WebP", async () => {
    expect(sniffImage(await makeImage("webp", 1, 1))).toEqual({
      ok: true,
      mediaType: "image/webp",
      width: 1,
      height: 1,
    });
  });

  it("refuses truncated and corrupt images, and things that are not images", async () => {
    const pngBytes = await makeImage("png", 7, 5);
    expect(sniffImage(pngBytes.subarray(0, pngBytes.length - 20))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/truncated/) as unknown,
    });
    const jpegBytes = await makeImage("jpeg", 7, 5);
    expect(sniffImage(jpegBytes.subarray(0, 40))).toMatchObject({ ok: false });
    const gifBytes = await makeImage("gif", 7, 5);
    expect(sniffImage(gifBytes.subarray(0, gifBytes.length - 1))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/trailer/) as unknown,
    });
    const webp = await makeImage("webp", 1, 1);
    expect(sniffImage(webp.subarray(0, 20))).toMatchObject({ ok: false });
    expect(
      sniffImage(new TextEncoder().encode("<html><body>not a picture</body></html>")),
    ).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"<html><body>not ') as unknown,
    });
    expect(sniffImage(new Uint8Array())).toEqual({ ok: false, reason: "empty" });
    // The right magic number on garbage is still not an image.
    expect(
      sniffImage(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])),
    ).toMatchObject({ ok: false });
  });
});

describe("classifyContext", () => {
  const cases: [string, string][] = [
    ["Tesla manufactures electric vehicles.", "text"],
    ["data:image/png;base64,iVBORw0KGgo=", "image base64"],
    ["data:text/plain;base64,aGVsbG8=", "text"],
    ["https://example.com/tesla.jpg", "image url"],
    ["HTTP://EXAMPLE.COM/anything", "image url"],
    ["custom_eval/multimodal/images/tesla.jpg", "image path"],
    ["tesla.JPEG", "image path"],
    ["C:\\photos\\cat.webp", "image path"],
    ["see photo.jpg", "text"],
    ["a line\nand another.png", "text"],
    ["report.pdf", "text"],
  ];
  for (const [value, expected] of cases) {
    it(`${JSON.stringify(value)} is ${expected}`, () => {
      const result = classifyContext(value);
      expect(result.kind === "text" ? "text" : `image ${result.source.kind}`).toBe(expected);
    });
  }
});

describe("address and URL policy", () => {
  const refused = [
    "http://127.0.0.1/x.png",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://0x7f.1/",
    "http://0177.0.0.1/",
    "http://127.1/",
    "http://0/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[0:0:0:0:0:ffff:7f00:1]/",
    "http://[::ffff:10.0.0.1]/",
    "http://10.0.0.1/",
    "http://172.16.5.4/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data",
    "http://100.64.0.1/",
    "http://224.0.0.1/",
    "http://0.0.0.0/",
    "http://255.255.255.255/",
    "http://198.18.0.1/",
    "http://[fe80::1]/",
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "http://[ff02::1]/",
    "http://[::]/",
    "http://[64:ff9b::7f00:1]/",
    "http://[2002:7f00:1::]/",
  ];
  for (const url of refused) {
    it(`refuses ${url}`, () => {
      expect(checkImageUrl(url)).toMatchObject({ ok: false, refused: "address" });
    });
  }

  const malformed = [
    ["ftp://example.com/a.png", /only http and https/],
    ["file:///etc/passwd", /only http and https/],
    ["javascript:alert(1)", /only http and https/],
    ["http://user:secret@example.com/a.png", /user name or password/],
    ["http://example.com@127.0.0.1/", /user name or password/],
    ["http://example.com\\@127.0.0.1/", /backslash/],
    ["http:\\\\127.0.0.1/", /backslash/],
  ] as const;
  for (const [url, reason] of malformed) {
    it(`refuses ${url}`, () => {
      const check = checkImageUrl(url);
      expect(check).toMatchObject({ ok: false, refused: "url" });
      if (!check.ok) expect(check.reason).toMatch(reason);
    });
  }

  it("accepts public addresses and names (names are checked when resolved)", () => {
    expect(checkImageUrl("https://8.8.8.8/a.png")).toMatchObject({ ok: true, address: "8.8.8.8" });
    expect(checkImageUrl("http://[2606:4700::1111]/")).toMatchObject({
      ok: true,
      address: "2606:4700::1111",
    });
    expect(checkImageUrl("https://images.example.com/a.png")).toMatchObject({
      ok: true,
      host: "images.example.com",
    });
    expect(checkImageUrl("https://images.example.com/a.png")).not.toHaveProperty("address");
  });

  it("judges IPv6 addresses that carry an IPv4 address by it too (issue 22, item 3)", () => {
    const refused = [
      "::127.0.0.1", // IPv4-compatible, as a URL writes it: ::7f00:1
      "::7f00:1",
      "::a00:1",
      "::a9fe:a9fe",
      "::ffff:127.0.0.1",
      "::ffff:0:7f00:1", // translated (RFC 6145)
      "64:ff9b::7f00:1", // NAT64
      "64:ff9b:1::a00:1", // local-use NAT64
      "2002:7f00:1::", // 6to4 of 127.0.0.1
      "2002:a9fe:a9fe::1",
      "2001:0:4136:e378:8000:63bf:80ff:fffe", // Teredo, client 127.0.0.1 (inverted)
    ];
    for (const address of refused) {
      expect([address, checkAddress(address).allowed]).toEqual([address, false]);
    }
    expect(checkAddress("::7f00:1")).toMatchObject({ address: "127.0.0.1", range: "loopback" });
    expect(checkAddress("2002:7f00:1::").range).toBe("6to4 carrying loopback");
    expect(checkAddress("::808:808")).toMatchObject({ allowed: true, address: "8.8.8.8" });
    expect(checkAddress("::1")).toMatchObject({ allowed: false, range: "loopback" });
    expect(checkAddress("::7f00:1", ["127.0.0.1/32"])).toMatchObject({ allowed: true });
    for (const url of [
      "http://[::127.0.0.1]/",
      "http://[::10.0.0.1]/",
      "http://[::169.254.169.254]/",
    ]) {
      expect([url, checkImageUrl(url).ok]).toEqual([url, false]);
    }
  });

  it("lets an explicit CIDR allow-list through, and nothing else", () => {
    expect(checkAddress("127.0.0.1", ["127.0.0.1/32"])).toMatchObject({
      allowed: true,
      range: "loopback",
    });
    expect(checkAddress("127.0.0.2", ["127.0.0.1/32"])).toMatchObject({ allowed: false });
    expect(checkAddress("::ffff:127.0.0.1", ["127.0.0.0/8"])).toMatchObject({
      allowed: true,
      address: "127.0.0.1",
    });
    expect(checkAddress("not an address")).toMatchObject({ allowed: false, range: "invalid" });
  });
});

describe("imageLimitsFor", () => {
  it("takes the stricter of the caller's limits and the provider's", () => {
    expect(imageLimitsFor("anthropic")).toEqual({ maxBytes: 5 * 1024 * 1024, maxSide: 8000 });
    expect(imageLimitsFor("openai", { maxBytes: 1000 })).toEqual({ maxBytes: 1000, maxSide: 8000 });
    expect(imageLimitsFor("ollama")).toEqual({ maxBytes: 20 * 1024 * 1024, maxSide: 8000 });
  });
});
