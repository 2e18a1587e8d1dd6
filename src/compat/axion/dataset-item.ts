/** A tool call as axion shapes it: a name and its arguments. */
export class ToolCall {
  name: string;
  args: Record<string, unknown>;
  output?: unknown;

  constructor(params: { name: string; args?: Record<string, unknown>; output?: unknown }) {
    this.name = params.name;
    this.args = params.args ?? {};
    if (params.output !== undefined) this.output = params.output;
  }
}

/** The tool call shapes axion's metric accepts: its own, or any object with `inputParameters`. */
export type ToolCallLike =
  | ToolCall
  | { name: string; args?: Record<string, unknown> | null; output?: unknown }
  | { name: string; inputParameters?: Record<string, unknown> | null; output?: unknown };

export interface DatasetItemInit {
  id?: string;
  query?: string;
  actualOutput?: string;
  expectedOutput?: string;
  toolsCalled?: ToolCallLike[];
  expectedTools?: ToolCallLike[];
  metadata?: Record<string, unknown>;
}

/** One evaluation item, as axion shapes it. Plain objects with the same fields work too. */
export class DatasetItem {
  id?: string;
  query?: string;
  actualOutput?: string;
  expectedOutput?: string;
  toolsCalled?: ToolCallLike[];
  expectedTools?: ToolCallLike[];
  metadata?: Record<string, unknown>;

  constructor(params: DatasetItemInit = {}) {
    Object.assign(this, params);
  }
}
