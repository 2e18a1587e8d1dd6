import { ProviderConfigError } from "../core/errors.js";
import type { JudgeModel } from "../core/judge.js";
import { createAnthropicJudge } from "./anthropic.js";
import type { AnthropicStructuredOutput } from "./anthropic.js";
import { createOpenAIJudge } from "./openai.js";
import { createOpenAIDecisionsJudge } from "./openai-decisions.js";
import { createSystemOneJudge } from "./systemone.js";
import type { OpenAIStructuredOutput } from "./openai.js";

/** Settings for a judge named by a model string; each falls back to the environment. */
export interface JudgeModelSettings {
  apiKey?: string;
  baseURL?: string;
  /**
   * Each try's deadline in milliseconds, the answer's read included; a call with its retries ends
   * within `timeoutMs × (maxRetries + 1)`. Default 60,000.
   */
  timeoutMs?: number;
  /** HTTP retries by the SDK. Default 3. */
  maxRetries?: number;
  structuredOutput?: OpenAIStructuredOutput | AnthropicStructuredOutput;
  supportsImages?: boolean;
  headers?: Record<string, string>;
  /** Azure OpenAI API version. Default: `OPENAI_API_VERSION`. */
  apiVersion?: string;
  /** Where credentials and base URLs are read from. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Where the caller takes keys from, for the missing-key error: `"settings"` (code: `apiKey` or
   * the variable) or `"environment"` (the CLI: the variable only). Default `"settings"`.
   */
  keysFrom?: "settings" | "environment";
}

interface ProviderEntry {
  /** Environment variable of the API key; absent for local servers that need none. */
  readonly keyVariable?: string;
  /** Environment variable of a key that servers may want and local ones do without. */
  readonly optionalKeyVariable?: string;
  /** Whether its models are decision models (see `JudgeModel.answers`). */
  readonly decisions?: true;
  /** Environment variable of the base URL, and the default when unset. */
  readonly urlVariable?: string;
  readonly defaultURL?: string;
  readonly create: (model: string, settings: ResolvedSettings) => JudgeModel;
}

interface ResolvedSettings extends JudgeModelSettings {
  readonly provider: string;
}

/** A judge on a local or hosted OpenAI-compatible server. */
function openAICompatible(model: string, settings: ResolvedSettings): JudgeModel {
  return createOpenAIJudge({
    model,
    provider: settings.provider,
    ...clientSettings(settings),
    // Local servers take any key; the SDK insists on one.
    apiKey: settings.apiKey ?? "not-needed",
    ...structured(settings, ["json-schema", "json-object", "prompt"]),
  });
}

/** The key, base URL and common settings of an SDK client. */
function clientSettings(settings: JudgeModelSettings) {
  return {
    apiKey: settings.apiKey,
    ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
    ...common(settings),
  };
}

/** The structured-output mode, checked against what the provider offers. */
function structured(
  settings: ResolvedSettings,
  offered: readonly string[],
): { structuredOutput?: never } {
  const mode = settings.structuredOutput;
  if (mode === undefined) return {};
  if (!offered.includes(mode)) {
    throw new ProviderConfigError({
      provider: settings.provider,
      message:
        offered.length === 0
          ? `${settings.provider}: structuredOutput does not apply: a decision model answers with probabilities, not text; leave it unset`
          : `${settings.provider}: structuredOutput ${JSON.stringify(mode)} is not offered; use ${offered.map((m) => JSON.stringify(m)).join(" or ")}`,
    });
  }
  // Checked above: the mode is one this provider's judge takes.
  return { structuredOutput: mode as never };
}

function common(settings: JudgeModelSettings) {
  return {
    ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
    ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
    ...(settings.supportsImages === undefined ? {} : { supportsImages: settings.supportsImages }),
    ...(settings.headers === undefined ? {} : { headers: settings.headers }),
  };
}

const providers: Readonly<Record<string, ProviderEntry>> = {
  openai: {
    keyVariable: "OPENAI_API_KEY",
    urlVariable: "OPENAI_BASE_URL",
    create: (model, settings) =>
      createOpenAIJudge({
        model,
        ...clientSettings(settings),
        ...structured(settings, ["json-schema", "json-object", "prompt"]),
      }),
  },
  azure: {
    keyVariable: "AZURE_OPENAI_API_KEY",
    urlVariable: "AZURE_OPENAI_ENDPOINT",
    create: (model, settings) => {
      const apiVersion = settings.apiVersion ?? settings.env?.OPENAI_API_VERSION;
      if (settings.baseURL === undefined || apiVersion === undefined) {
        throw new ProviderConfigError({
          provider: "azure",
          message:
            "azure: set AZURE_OPENAI_ENDPOINT and OPENAI_API_VERSION (or the baseURL and apiVersion settings); the model is your deployment's name",
        });
      }
      return createOpenAIJudge({
        model,
        apiKey: settings.apiKey,
        azure: { endpoint: settings.baseURL, apiVersion },
        ...common(settings),
      });
    },
  },
  anthropic: {
    keyVariable: "ANTHROPIC_API_KEY",
    urlVariable: "ANTHROPIC_BASE_URL",
    create: (model, settings) =>
      createAnthropicJudge({
        model,
        ...clientSettings(settings),
        ...structured(settings, ["json-schema", "tool"]),
      }),
  },
  ollama: {
    urlVariable: "OLLAMA_BASE_URL",
    defaultURL: "http://127.0.0.1:11434/v1",
    create: openAICompatible,
  },
  lmstudio: {
    urlVariable: "LMSTUDIO_BASE_URL",
    defaultURL: "http://127.0.0.1:1234/v1",
    create: openAICompatible,
  },
  vllm: { urlVariable: "VLLM_BASE_URL", create: openAICompatible },
  // Decision models: they answer judged metrics' typed questions with probabilities.
  "openai-decisions": {
    decisions: true,
    keyVariable: "OPENAI_API_KEY",
    urlVariable: "OPENAI_BASE_URL",
    create: (model, settings) => {
      structured(settings, []);
      return createOpenAIDecisionsJudge({
        model,
        provider: settings.provider,
        ...clientSettings(settings),
      });
    },
  },
  systemone: {
    decisions: true,
    optionalKeyVariable: "SYSTEMONE_API_KEY",
    urlVariable: "SYSTEMONE_BASE_URL",
    create: (model, settings) => {
      structured(settings, []);
      return createSystemOneJudge({
        model,
        provider: settings.provider,
        // Checked where settings are resolved: a provider without a key variable needs an address.
        baseURL: settings.baseURL ?? "",
        ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
        ...(settings.timeoutMs === undefined ? {} : { timeoutMs: settings.timeoutMs }),
        ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
        ...(settings.headers === undefined ? {} : { headers: settings.headers }),
      });
    },
  },
  "openai-compatible": {
    urlVariable: "OPENAI_COMPATIBLE_BASE_URL",
    create: openAICompatible,
  },
};

/** The provider names model strings may start with. */
export const judgeProviders: readonly string[] = Object.keys(providers);

/** Splits `provider/model`; bare `gpt-*` / `o*` names are OpenAI's and `claude-*` Anthropic's. */
export function parseModelString(spec: string): { provider: string; model: string } {
  const slash = spec.indexOf("/");
  if (slash > 0) return { provider: spec.slice(0, slash), model: spec.slice(slash + 1) };
  if (/^(gpt-|o\d|chatgpt-)/i.test(spec)) return { provider: "openai", model: spec };
  if (/^claude-/i.test(spec)) return { provider: "anthropic", model: spec };
  throw new ProviderConfigError({
    message: `cannot tell the provider of model ${JSON.stringify(spec)}; write it as provider/model, such as openai/gpt-4.1 or anthropic/claude-sonnet-4-5 (providers: ${judgeProviders.join(", ")})`,
  });
}

/**
 * A model string's judge as a calibration names it (`provider/model`), and whether it is a
 * decision model; undefined for a string that names no known provider.
 */
export function judgeNamed(
  model: string,
): { readonly name: string; readonly decisions: boolean } | undefined {
  try {
    const { provider, model: id } = parseModelString(model.trim());
    const entry = providers[provider] as ProviderEntry | undefined;
    return entry === undefined
      ? undefined
      : { name: `${provider}/${id}`, decisions: entry.decisions === true };
  } catch {
    return undefined;
  }
}

/** The environment variable a provider's key is read from, for `provider/model`; else undefined. */
export function keyVariableOf(model: string): string | undefined {
  try {
    const { provider } = parseModelString(model.trim());
    return (providers[provider] as ProviderEntry | undefined)?.keyVariable;
  } catch {
    return undefined;
  }
}

/**
 * The judge a model string names (`openai/gpt-4.1`, `anthropic/claude-sonnet-4-5`,
 * `ollama/llama3.2`, `azure/<deployment>`, `vllm/...`, `lmstudio/...`,
 * `openai-compatible/...`; the decision models `openai-decisions/gpt-6-luna` and
 * `systemone/<model>`), or the judge itself when given one. Credentials and base URLs come
 * from the settings, else the usual environment variables. An unknown provider, a missing key or
 * a missing base URL is a `ProviderConfigError` here, before any case runs.
 */
export function resolveJudgeModel(
  model: string | JudgeModel,
  settings: JudgeModelSettings = {},
): JudgeModel {
  if (typeof model === "object") {
    if ((model as { specificationVersion?: unknown }).specificationVersion !== "v1") {
      throw new ProviderConfigError({
        message:
          'a judge model must implement toolscore\'s JudgeModel v1 (specificationVersion "v1"); wrap an AI SDK model with fromAiSdk()',
      });
    }
    return model;
  }
  if (typeof (model as unknown) !== "string" || model.trim() === "") {
    throw new ProviderConfigError({
      message: "the judge model must be a model string or a JudgeModel",
    });
  }
  const { provider, model: modelId } = parseModelString(model.trim());
  const entry = providers[provider] as ProviderEntry | undefined;
  if (entry === undefined) {
    throw new ProviderConfigError({
      provider,
      message: `unknown provider ${JSON.stringify(provider)} in ${JSON.stringify(model)}; known: ${judgeProviders.join(", ")} (or pass a JudgeModel, e.g. fromAiSdk(...))`,
    });
  }
  if (modelId === "") {
    throw new ProviderConfigError({
      provider,
      message: `${JSON.stringify(model)} names no model after the provider`,
    });
  }
  // The edge where configuration enters: the one place providers read the environment.
  const env = settings.env ?? process.env;
  const keyVariable = entry.keyVariable ?? entry.optionalKeyVariable;
  const apiKey = settings.apiKey ?? (keyVariable ? env[keyVariable] : undefined);
  if (entry.keyVariable && (apiKey === undefined || apiKey === "")) {
    throw new ProviderConfigError({
      provider,
      message:
        settings.keysFrom === "environment"
          ? `${provider}: no API key; set ${entry.keyVariable} in the environment the command runs in (keys are read from there only, never from a config or a dataset)`
          : `${provider}: no API key; set ${entry.keyVariable}, or give the key as apiKey in the model settings`,
    });
  }
  const baseURL =
    settings.baseURL ??
    (entry.urlVariable ? env[entry.urlVariable] : undefined) ??
    entry.defaultURL;
  if (entry.keyVariable === undefined && baseURL === undefined) {
    throw new ProviderConfigError({
      provider,
      message: `${provider}: no server address; set ${entry.urlVariable ?? "the baseURL setting"} (such as http://127.0.0.1:8000/v1)`,
    });
  }
  return entry.create(modelId, {
    ...settings,
    provider,
    env,
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(baseURL === undefined ? {} : { baseURL }),
  });
}
