import type OpenAI from "openai";
import type * as OpenAIModule from "openai";
import type { OpenAIJudgeOptions } from "./openai.js";
import type { ClientSettings } from "./sdk-judge.js";

// Apart from openai.ts, so that the declarations of the public judges never name the optional
// SDK's types.
/** The SDK's client for a judge's options: Azure's, or OpenAI's at the options' base URL. */
export function newOpenAIClient(
  module: typeof OpenAIModule,
  options: Pick<OpenAIJudgeOptions, "model" | "azure" | "baseURL" | "organization" | "project">,
  apiKey: string | undefined,
  settings: ClientSettings,
): OpenAI {
  return options.azure
    ? new module.AzureOpenAI({
        endpoint: options.azure.endpoint,
        apiVersion: options.azure.apiVersion,
        deployment: options.model,
        apiKey,
        ...settings,
      })
    : new module.OpenAI({
        apiKey,
        ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
        ...(options.organization === undefined ? {} : { organization: options.organization }),
        ...(options.project === undefined ? {} : { project: options.project }),
        ...settings,
      });
}
