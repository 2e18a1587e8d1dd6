import type { JsonValue } from "../core/json.js";

/**
 * Python's text of JSON values, for the metrics that reproduce a Python tool's numbers: `str()` of
 * a value as `json.loads` would have made it, and `round(x, digits)`. A whole number is a Python
 * int (a JavaScript number cannot tell `10.0` from `10`); any other number a float.
 */

// Characters Python's str.isprintable() refuses, which repr() escapes (a space is printable).
const unprintable = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

const hex = (code: number, width: number): string => code.toString(16).padStart(width, "0");

/** `repr()` of a Python str: single quotes unless the text has one and no double quote. */
function reprString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if (char === quote || char === "\\") out += `\\${char}`;
    else if (char === "\n") out += "\\n";
    else if (char === "\r") out += "\\r";
    else if (char === "\t") out += "\\t";
    else if (char !== " " && unprintable.test(char)) {
      out +=
        code < 0x100
          ? `\\x${hex(code, 2)}`
          : code < 0x10000
            ? `\\u${hex(code, 4)}`
            : `\\U${hex(code, 8)}`;
    } else out += char;
  }
  return out + quote;
}

/** `repr()` of a Python float: the shortest digits, fixed from 1e-4 up to 1e16, else exponent. */
function reprFloat(value: number): string {
  if (Number.isNaN(value)) return "nan";
  if (!Number.isFinite(value)) return value > 0 ? "inf" : "-inf";
  const [mantissa, exponentText] = value.toExponential().split("e");
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace("-", "").replace(".", "");
  let text: string;
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) text = `0.${"0".repeat(-exponent - 1)}${digits}`;
    else {
      const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, "0");
      const fraction = digits.slice(exponent + 1);
      text = `${whole}.${fraction === "" ? "0" : fraction}`;
    }
  } else {
    const rest = digits.slice(1);
    const sign = exponent < 0 ? "-" : "+";
    text = `${digits[0]}${rest === "" ? "" : `.${rest}`}e${sign}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return negative ? `-${text}` : text;
}

function reprNumber(value: number): string {
  return Number.isInteger(value) ? BigInt(value).toString() : reprFloat(value);
}

/** `repr()` of a value as Python holds it after `json.loads`. */
function repr(value: JsonValue): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return reprNumber(value);
  if (typeof value === "string") return reprString(value);
  if (Array.isArray(value)) return `[${value.map(repr).join(", ")}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${reprString(key)}: ${repr(item)}`)
    .join(", ")}}`;
}

/** Python's `str(value)`: a string as it is, anything else as its `repr()`. */
export function pythonStr(value: JsonValue): string {
  return typeof value === "string" ? value : repr(value);
}

/**
 * Python's `round(value, digits)` for a value in [0, 1] and digits up to 4: the nearest, ties (an
 * exact binary value halfway) to even. Such a tie is a multiple of 1/32 for 4 digits, so the check
 * is exact.
 */
export function pythonRound(value: number, digits: 1 | 2 | 3 | 4): number {
  const scale = 10 ** digits;
  const scaled = value * scale;
  const floor = Math.floor(scaled);
  // Exact ties only: value * 2 * scale an odd integer, where the product is exact (a 1/32 grid).
  if (Number.isInteger(value * 32) && scaled - floor === 0.5) {
    return (floor % 2 === 0 ? floor : floor + 1) / scale;
  }
  return Number(value.toFixed(digits));
}

/** Python's ordering of str: by code point (JavaScript's `<` orders UTF-16 units). */
export function comparePythonStrings(a: string, b: string): number {
  const left = Array.from(a);
  const right = Array.from(b);
  const n = Math.min(left.length, right.length);
  for (let at = 0; at < n; at++) {
    const x = left[at].codePointAt(0) ?? 0;
    const y = right[at].codePointAt(0) ?? 0;
    if (x !== y) return x - y;
  }
  return left.length - right.length;
}
