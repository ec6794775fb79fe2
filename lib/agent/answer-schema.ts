import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { isTextTooDeep, TOO_DEEP } from '../protocol/depth.js';
import { UsageError } from '../errors.js';
import { describeSchemaError } from '../protocol/validate.js';
import { isJsonObject } from '../protocol/json-object.js';

/** What a provider is told of the answer's schema (--output-schema): OpenAI's `json_schema` response format takes it as is. */
export type AnswerFormat = {
  /** Names the schema for the API (letters, digits, _ and -). */
  name: string;
  /** The schema, without its `$schema` (the draft, which only ajv needs). */
  schema: Record<string, unknown>;
  /** The schema meets OpenAI's strict rules (strictProblem): the API then guarantees it. */
  strict: boolean;
};

/** The answer checked: its JSON text (a single Markdown fence taken off) and value, or ajv's first errors in words. */
export type AnswerVerdict = { ok: true; text: string; value: unknown } | { ok: false; errors: string };

export type AnswerSchema = AnswerFormat & {
  check(text: string): AnswerVerdict;
  /** --output-retries: how many times a non-conforming answer is sent back with its errors (default 2). */
  retries: number;
};

export const DEFAULT_OUTPUT_RETRIES = 2;
/** The errors named in a retry request and in `invalid_output`. */
const ERRORS_SHOWN = 5;

/** The keywords OpenAI's strict mode accepts (platform.openai.com/docs/guides/structured-outputs#supported-schemas). */
const STRICT_KEYWORDS = new Set([
  '$schema', '$id', '$defs', 'definitions', '$ref', 'title', 'description', 'type', 'properties', 'required', 'additionalProperties',
  'items', 'enum', 'const', 'anyOf', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);

/**
 * Why the schema does not meet OpenAI's strict rules (undefined: it does): the root an object, every object with
 * `additionalProperties: false` and all its properties required, and only the keywords strict mode supports.
 */
export function strictProblem(schema: Record<string, unknown>): string | undefined {
  if (schema.type !== 'object') return 'the root is not {"type": "object"}';
  const walk = (node: unknown, at: string): string | undefined => {
    if (Array.isArray(node)) return node.map((item, index) => walk(item, `${at}/${index}`)).find(Boolean);
    if (!isJsonObject(node)) return undefined;
    const unsupported = Object.keys(node).find((key) => !STRICT_KEYWORDS.has(key));
    if (unsupported) return `${at || '/'} uses ${JSON.stringify(unsupported)}, which strict mode does not support`;
    if (node.type === 'object' || isJsonObject(node.properties)) {
      if (node.additionalProperties !== false) return `${at || '/'} does not set "additionalProperties": false`;
      const properties = isJsonObject(node.properties) ? Object.keys(node.properties) : [];
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      const optional = properties.find((name) => !required.has(name));
      if (optional) return `${at || '/'} does not require ${JSON.stringify(optional)} (strict mode needs every property required)`;
    }
    for (const key of ['properties', '$defs', 'definitions']) {
      if (isJsonObject(node[key])) {
        const found = Object.entries(node[key] as Record<string, unknown>).map(([name, child]) => walk(child, `${at}/${key}/${name}`)).find(Boolean);
        if (found) return found;
      }
    }
    for (const key of ['items', 'anyOf']) {
      const found = walk(node[key], `${at}/${key}`);
      if (found) return found;
    }
    return undefined;
  };
  return walk(schema, '');
}

/** A single Markdown code fence around the whole answer, as models write despite being asked not to. */
const FENCE = /^\s*```[\w-]*[ \t]*\n([^]*?)\n[ \t]*```\s*$/;

export function stripFence(text: string): string {
  return FENCE.exec(text)?.[1] ?? text.trim();
}

function compile(schema: Record<string, unknown>, file: string): ValidateFunction {
  const draft2020 = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
  const options = { allErrors: true, strict: false };
  try {
    return (draft2020 ? new Ajv2020(options) : new Ajv(options)).compile(schema);
  } catch (error) {
    throw new UsageError(`--output-schema ${file} is not a JSON Schema ajv can compile (draft 2020-12 or 07): ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** --output-schema: the file's text as the answer's schema; not JSON, not an object, or not a schema ajv compiles is a usage error. */
export function answerSchema(text: string, file: string, retries = DEFAULT_OUTPUT_RETRIES): AnswerSchema {
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--output-schema ${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isJsonObject(schema)) throw new UsageError(`--output-schema ${file} is not a JSON Schema: it must be a JSON object.`);
  const validate = compile(schema, file);
  const check = (answer: string): AnswerVerdict => {
    const json = stripFence(answer);
    // ajv walks a value recursively (its stack overflowed a few thousand levels down); nothing zero writes nests past this
    if (isTextTooDeep(json)) return { ok: false, errors: `the answer is ${TOO_DEEP}` };
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      return { ok: false, errors: 'the answer is not a JSON document' };
    }
    if (validate(value)) return { ok: true, text: json, value };
    const errors = (validate.errors ?? []).slice(0, ERRORS_SHOWN).map((error) => {
      const { field, problem } = describeSchemaError(error, value);
      return `${field}: ${problem}`;
    });
    return { ok: false, errors: errors.join('; ') || 'the answer does not conform' };
  };
  // the draft is for ajv: the APIs are sent the schema without it
  const { $schema: _draft, ...sent } = schema;
  return { name: 'answer', schema: sent, strict: strictProblem(sent) === undefined, check, retries };
}

/** What the model is told when its answer does not conform, so that it answers again. */
export function retryRequest(errors: string): string {
  return `Your answer does not conform to the required JSON Schema: ${errors}. Answer again with only a JSON document that conforms to the schema, no prose and no Markdown.`;
}
