/**
 * The machinery of a settings table: each setting of a command is one entry (its kind, its flag,
 * its config key, its default), and the command's flags, its help, its shell completion, the
 * config file's JSON Schema and the resolved values are all read from the table. A setting
 * without an entry does not compile; one that is in the table has every surface at once.
 */
import path from "node:path";
import type { JsonObject, JsonValue } from "../core/json.js";
import { percentShare } from "../core/options.js";
import { usageError, numberFlag, shareFlag } from "./io.js";
import type { Flag } from "./flags.js";

/** Where a config value was read: the file's folder, and the key as the file spelled it. */
export interface ConfigPlace {
  readonly directory: string;
  readonly spelled: string;
}

/** What a setting's values are, and how a flag's text and a config file's value are read. */
export interface Kind<T> {
  readonly flagType: "string" | "boolean";
  readonly multiple?: boolean;
  /** The JSON Schema of a config file's value (its description comes from the entry). */
  readonly schema: JsonObject;
  /** The value of a setting not given. */
  readonly fallback?: T;
  /** A flag's value (text, or true), checked; `flag` is `--name`. A usage error otherwise. */
  readonly fromFlag: (value: string | boolean | readonly string[], flag: string, cwd: string) => T;
  /**
   * A config file's value, already checked against {@link Kind.schema}; what the schema cannot
   * say (a percentage's range) throws a message that starts with the key as spelled.
   */
  readonly fromConfig: (value: JsonValue, place: ConfigPlace) => T;
}

/** A setting's flag: how --help shows it; its name is the setting's in kebab-case unless given. */
export interface FlagSpec {
  readonly name?: string;
  readonly short?: string;
  /** The value's placeholder (`<file>`); its kind's words when they are few. */
  readonly value?: string;
  readonly help?: string;
  readonly group?: string;
}

/**
 * A setting's key in the config file. `G` names the table's config groups, so that a key inside
 * a group the table does not describe does not compile.
 */
export interface ConfigSpec<G extends string = string> {
  /**
   * The key inside a group, camelCase (`judge.timeoutMs` is inside the `judge` object); a
   * setting at the top level is keyed by its name.
   */
  readonly key?: `${G}.${string}`;
  /** What it is, one line: the schema's description, which editors show. */
  readonly doc: string;
  /** Keys of the schema that differ from its kind's (a minimum, another error message). */
  readonly schema?: JsonObject;
}

/** One entry of a settings table; `G` names the table's config groups. */
export interface Setting<T, G extends string = string> {
  readonly kind: Kind<T>;
  readonly flag?: FlagSpec;
  readonly config?: ConfigSpec<G>;
  /** The value when neither the flag nor the config gives one, when it is not the kind's. */
  readonly fallback?: (cwd: string) => T;
  /** Both given: the value from the flag's and the config's (default: the flag's). */
  readonly combine?: (fromFlag: T, fromConfig: T) => T;
}

/**
 * A table with one entry per setting of `S`: a setting without an entry does not compile, nor
 * does a config key inside a group that is not one of `G`.
 */
export type SettingsTable<S, G extends string = string> = {
  readonly [K in keyof S]-?: Setting<S[K], G>;
};

/** An object in the config file that holds settings (`judge: { model, ... }`). */
export interface ConfigGroup {
  readonly description: string;
  readonly errorMessage: string;
  /** The key a plain string stands for (`judge: openai/gpt-4o-mini` is `judge.model`). */
  readonly shorthand: string;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** A key's snake_case spelling, which config files may use: `baseURL` is `base_url`. */
export const snake = (name: string) =>
  name.replace(/([a-z0-9])([A-Z]+)/g, (_, before: string, capitals: string) => {
    return `${before}_${capitals.toLowerCase()}`;
  });

/** A setting's flag name (without dashes). */
export function flagName(name: string, setting: Setting<unknown>): string {
  return setting.flag?.name ?? kebab(name);
}

/** A setting's config key (camelCase, dotted inside a group). */
export function configKey(name: string, setting: Setting<unknown>): string | undefined {
  return setting.config === undefined ? undefined : (setting.config.key ?? name);
}

/**
 * The flags of the named settings, in table order, as `parseArgs` reads them and --help lists
 * them; `grouped: false` leaves the help's groups out (a command with few flags).
 */
export function flagsOf<S>(
  table: SettingsTable<S>,
  names: readonly (keyof S & string)[],
  options: { readonly grouped?: boolean } = {},
): Record<string, Flag> {
  const flags: Record<string, Flag> = {};
  for (const name of names) {
    const setting = table[name] as Setting<unknown>;
    const spec = setting.flag;
    if (spec === undefined) continue;
    flags[flagName(name, setting)] = {
      type: setting.kind.flagType,
      ...(spec.short === undefined ? {} : { short: spec.short }),
      ...(setting.kind.multiple === true ? { multiple: true } : {}),
      ...(spec.value === undefined ? {} : { value: spec.value }),
      ...(spec.help === undefined ? {} : { help: spec.help }),
      ...(spec.group === undefined || options.grouped === false ? {} : { group: spec.group }),
    };
  }
  return flags;
}

/** Every setting of a table that has a flag, by name, in table order. */
export function flagSettings<S>(table: SettingsTable<S>): (keyof S & string)[] {
  return (Object.keys(table) as (keyof S & string)[]).filter(
    (name) => (table[name] as Setting<unknown>).flag !== undefined,
  );
}

/** A setting's config schema: its kind's, with its own keys over it and its description. */
function schemaOf(setting: Setting<unknown>): JsonObject {
  const config = setting.config as ConfigSpec;
  const schema = { ...setting.kind.schema, ...config.schema };
  if (!("$ref" in schema)) return { ...schema, description: config.doc };
  // A reference comes first, then the description, then what else the setting says.
  const { $ref, ...rest } = schema;
  return { $ref, description: config.doc, ...rest };
}

/** A key and its snake_case twin (once when they are spelled alike), with one schema. */
function bothSpellings(key: string, schema: JsonObject): [string, JsonObject][] {
  const twin = snake(key);
  return twin === key
    ? [[key, schema]]
    : [
        [key, schema],
        [twin, schema],
      ];
}

/**
 * The config file's JSON Schema, from the table: each top-level setting and each group's in
 * camelCase and snake_case, a group also as its shorthand string; `head` holds the schema's own
 * keys (title, `definitions`) and the keys that come before the settings.
 */
export function configSchemaOf<S, G extends string>(
  table: SettingsTable<S, G>,
  groups: Readonly<Record<G, ConfigGroup>>,
  head: { readonly top: JsonObject; readonly first: JsonObject; readonly definitions: JsonObject },
): JsonObject {
  const properties: JsonObject = { ...head.first };
  const inside: Record<string, JsonObject> = {};
  for (const [name, entry] of Object.entries(table) as [string, Setting<unknown>][]) {
    const key = configKey(name, entry);
    if (key === undefined) continue;
    const [outer, inner] = key.split(".") as [G, string?];
    if (inner === undefined) {
      for (const [spelled, schema] of bothSpellings(key, schemaOf(entry))) {
        properties[spelled] = schema;
      }
      continue;
    }
    const group = groups[outer];
    if (!(outer in inside)) {
      inside[outer] = {};
      properties[outer] = {
        description: group.description,
        errorMessage: group.errorMessage,
        oneOf: [
          { type: "string" },
          {
            type: "object",
            required: [group.shorthand],
            properties: inside[outer],
            additionalProperties: false,
            errorMessage: group.errorMessage,
          },
        ],
      };
    }
    for (const [spelled, schema] of bothSpellings(inner, schemaOf(entry))) {
      inside[outer][spelled] = schema;
    }
  }
  return {
    ...head.top,
    properties,
    additionalProperties: false,
    definitions: head.definitions,
  };
}

/** The setting each spelling of a config key names, by its dotted camelCase key. */
export function configKeysOf<S>(table: SettingsTable<S>): Map<string, keyof S & string> {
  const keys = new Map<string, keyof S & string>();
  for (const [name, entry] of Object.entries(table) as [keyof S & string, Setting<unknown>][]) {
    const key = configKey(name, entry);
    if (key !== undefined) keys.set(key, name);
  }
  return keys;
}

/** Where each resolved setting came from. */
export type SettingSources<S> = { readonly [K in keyof S]?: "flag" | "config" };

/** Whether a flag's or a config's value gives the setting: an empty list gives none. */
function gives(value: unknown): boolean {
  return value !== undefined && !(Array.isArray(value) && value.length === 0);
}

/**
 * Every setting of `names`, checked, from the flags (`parseArgs`'s values) over the config's
 * values (read by the table already) over the defaults; with where each came from.
 */
export function resolveSettings<S, K extends keyof S & string>(
  table: SettingsTable<S>,
  names: readonly K[],
  input: {
    readonly flags: Readonly<Record<string, unknown>>;
    readonly config: Partial<S>;
    readonly cwd: string;
  },
): { settings: Pick<S, K>; from: SettingSources<Pick<S, K>> } {
  const values: Partial<Pick<S, K>> = {};
  const from: Partial<Record<K, "flag" | "config">> = {};
  for (const name of names) {
    const setting = table[name] as Setting<S[K]>;
    const flag = flagName(name, setting as Setting<unknown>);
    const raw = setting.flag === undefined ? undefined : input.flags[flag];
    const fromFlag = !gives(raw)
      ? undefined
      : setting.kind.fromFlag(raw as string | boolean | readonly string[], `--${flag}`, input.cwd);
    const fromConfig = gives(input.config[name]) ? input.config[name] : undefined;
    let value: S[K] | undefined;
    if (fromFlag !== undefined) {
      value =
        fromConfig !== undefined && setting.combine !== undefined
          ? setting.combine(fromFlag, fromConfig)
          : fromFlag;
      from[name] = "flag";
    } else if (fromConfig !== undefined) {
      value = fromConfig;
      from[name] = "config";
    } else {
      value = setting.fallback === undefined ? setting.kind.fallback : setting.fallback(input.cwd);
    }
    if (value !== undefined) values[name] = value;
  }
  return { settings: values as Pick<S, K>, from };
}

/** Words as a sentence lists them: `a, b or c`. */
function listed(words: readonly string[]): string {
  return words.length < 2 ? words.join("") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/** The kinds of settings the tables use. */
export const kinds = {
  /** A boolean flag; false when not given. */
  yesNo: {
    flagType: "boolean",
    schema: { type: "boolean", errorMessage: "must be true or false" },
    fallback: false,
    fromFlag: (value) => value === true,
    fromConfig: (value) => value as boolean,
  } satisfies Kind<boolean>,
  /** Text as given (a name, a pattern, a file shown as the user wrote it). */
  text: {
    flagType: "string",
    schema: { type: "string" },
    fromFlag: (value) => value as string,
    fromConfig: (value) => value as string,
  } satisfies Kind<string>,
  /** Repeated text, in order; none when not given. */
  texts: {
    flagType: "string",
    multiple: true,
    schema: { type: "array", items: { type: "string" } },
    fallback: [],
    fromFlag: (value) => value as readonly string[],
    fromConfig: (value) => value as readonly string[],
  } satisfies Kind<readonly string[]>,
  /** A file: a flag's relative to the current folder, a config's to the config file. */
  file: {
    flagType: "string",
    schema: { $ref: "#/definitions/path" },
    fromFlag: (value, _flag, cwd) => path.resolve(cwd, value as string),
    fromConfig: (value, place) => path.resolve(place.directory, value as string),
  } satisfies Kind<string>,
  /** A share from 0 to 1, also written as a percentage (`0.9`, `90%`). */
  share: {
    flagType: "string",
    schema: { $ref: "#/definitions/share" },
    // Given text, the flag readers always return a value.
    fromFlag: (value, flag) => shareFlag(flag.slice(2), value as string) as number,
    fromConfig: (value, place) => {
      const share = typeof value === "string" ? percentShare(value) : value;
      if (typeof share === "number" && share >= 0 && share <= 1) return share;
      throw new Error(`${place.spelled} must be a share from 0 to 1 (0.9) or a percentage ("90%")`);
    },
  } satisfies Kind<number>,
  /** A number from `min` to `max` on the command line; the schema says what a config's is. */
  number(min: number, max: number, schema: JsonObject = { type: "number" }) {
    return {
      flagType: "string",
      schema,
      fromFlag: (value, flag) => numberFlag(flag.slice(2), value as string, min, max) as number,
      fromConfig: (value) => value as number,
    } satisfies Kind<number>;
  },
  /** One of a few words. */
  choice<const W extends string>(words: readonly W[]) {
    return {
      flagType: "string",
      schema: {
        enum: [...words],
        errorMessage: `must be ${listed(words.map((word) => JSON.stringify(word)))}`,
      },
      fromFlag: (value, flag) => {
        if ((words as readonly unknown[]).includes(value)) return value as W;
        throw usageError(`${flag} takes ${listed(words)}, got ${JSON.stringify(value)}`, flag);
      },
      fromConfig: (value) => value as W,
    } satisfies Kind<W>;
  },
  /** A value read by `read` from a flag's text; a config's as the schema checked it. */
  read<T>(read: (text: string, flag: string) => T, schema: JsonObject = { type: "string" }) {
    return {
      flagType: "string",
      schema,
      fromFlag: (value, flag) => read(value as string, flag),
      fromConfig: (value) => value as T,
    } satisfies Kind<T>;
  },
};
