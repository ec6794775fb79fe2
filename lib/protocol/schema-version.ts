import type { SchemaKind } from './schemas.js';
import { CONTROL_EVENT_TYPES, type Parsed, type SchemaVersion } from './types.js';
import { mapStep, type Step } from '../streams.js';
import { acceptLine, checkAgainstSchema, conformsToSchema, validateParsed, type Verdict } from './validate.js';
import { isJsonObject } from './json-object.js';
import { acceptImages } from './images.js';

/** The kinds shipped in both versions (docs/protocol.md §9): a value is checked against the schema of its own schemaVersion. */
export type VersionedKind = 'input' | 'output';

/** A value's schemaVersion, when it is one of the versions zero speaks (1 or 2). */
export function schemaVersionOf(value: unknown): SchemaVersion | undefined {
  const version = isJsonObject(value) ? value.schemaVersion : undefined;
  return version === 1 || version === 2 ? version : undefined;
}

/**
 * Checks a value against the schema of its schemaVersion: 2 → `<kind>.v2`, 1 → `<kind>`; without one,
 * `<kind>` (which names it missing); any other version is the problem, whatever else the value holds.
 * An input event comes back as the run takes it: a message's images normalized (lib/protocol/images.ts).
 */
export function checkVersioned<T>(kind: VersionedKind, value: unknown): Verdict<T> {
  if (isJsonObject(value) && 'schemaVersion' in value && schemaVersionOf(value) === undefined) {
    return { ok: false, field: 'schemaVersion', problem: `Expected 1 or 2, received ${JSON.stringify(value.schemaVersion)}` };
  }
  const verdict = checkAgainstSchema<T>(schemaOf(kind, schemaVersionOf(value)), value);
  return kind === 'input' && verdict.ok ? acceptImages(verdict.value) : verdict;
}

/** Whether checkVersioned would find no problem (the common case, answered without building a verdict). */
function conformsVersioned(kind: VersionedKind, value: unknown): boolean {
  const version = schemaVersionOf(value);
  return version !== undefined && conformsToSchema(schemaOf(kind, version), value);
}

const V2 = { input: 'input.v2', output: 'output.v2' } as const;
/** The schema a value of `version` is checked against (without one, version 1's, which names it missing). */
const schemaOf = (kind: VersionedKind, version: SchemaVersion | undefined): SchemaKind => (version === 2 ? V2[kind] : kind);

export type VersionProblem = { field: 'schemaVersion'; problem: string };

export type VersionScopes = {
  /** The problem of a line whose schemaVersion differs from its scope's, if it does. */
  check(scope: string, value: unknown, lineNo: number): VersionProblem | undefined;
};

/**
 * One schemaVersion per scope: the whole input (docs/protocol.md §2) or one run (§3.3, rule 8). The
 * scope's first line with version 1 or 2 sets it (`onFirst` hears of it then); a line of the other
 * version is the problem, which names that first line:
 * `Expected 1, received 2 (run run_… is version 1 from line 1)`. `describe` names a scope.
 */
export function createVersionScopes(describe: (scope: string) => string, onFirst?: (version: SchemaVersion, scope: string) => void): VersionScopes {
  const first = new Map<string, { version: SchemaVersion; lineNo: number }>();
  // the scope and version of the line before, when they agreed: a run's lines come together
  let lastScope: string | undefined;
  let lastVersion: SchemaVersion | undefined;
  return {
    check(scope, value, lineNo) {
      const version = schemaVersionOf(value);
      if (version === undefined || (scope === lastScope && version === lastVersion)) return undefined;
      const seen = first.get(scope);
      if (!seen) {
        first.set(scope, { version, lineNo });
        onFirst?.(version, scope);
      } else if (seen.version !== version) {
        return { field: 'schemaVersion', problem: `Expected ${seen.version}, received ${version} (${describe(scope)} is version ${seen.version} from line ${seen.lineNo})` };
      }
      lastScope = scope;
      lastVersion = version;
      return undefined;
    },
  };
}

export type LineValidatorOptions = {
  /** Names what is invalid in the message (`Invalid <label> at line N: …`). */
  label?: string;
  /**
   * Input only: told the input's version once, as soon as its first line with version 1 or 2 is read,
   * even a line that is otherwise invalid (so a failure report can be written in that version).
   */
  onSchemaVersion?: (version: SchemaVersion) => void;
  /**
   * Input only: the control events (interrupt, permission_response) are refused, naming the flag they need: an
   * input read whole into one prompt (no --multi-turn) has no turn to interrupt and no request to answer.
   */
  promptsOnly?: boolean;
};

const needsMultiTurn = (type: string) => ({ ok: false as const, field: 'type', problem: `"${type}" events are accepted only with --multi-turn` });

/**
 * `{ value, lineNo }` → the typed value, or a usage error naming the line. `input`: each line against
 * the schema of its version, one version for the whole input; `output`: likewise, one version per
 * runId; any other kind against its one schema file (`input.v2` only v2, say).
 */
export function createLineValidator<T>(kind: SchemaKind, options: LineValidatorOptions = {}): (parsed: Parsed) => T {
  if (kind !== 'input' && kind !== 'output') return (parsed) => validateParsed<T>(kind, parsed, options.label);
  const scopes =
    kind === 'input'
      ? createVersionScopes(() => 'the input', (version) => options.onSchemaVersion?.(version))
      : createVersionScopes((runId) => `run ${runId}`);
  return ({ value, lineNo }) => {
    const scope = kind === 'output' && isJsonObject(value) && typeof value.runId === 'string' ? value.runId : '';
    const mixed = scopes.check(scope, value, lineNo);
    if (!mixed && !options.promptsOnly && conformsVersioned(kind, value)) return kind === 'input' ? acceptLine(kind, acceptImages(value as T), lineNo, options.label) : (value as T);
    const verdict = mixed ? { ok: false as const, ...mixed } : checkVersioned<T>(kind, value);
    const refused = options.promptsOnly && verdict.ok && CONTROL_EVENT_TYPES.has((value as { type: string }).type);
    return acceptLine(kind, refused ? needsMultiTurn((value as { type: string }).type) : verdict, lineNo, options.label);
  };
}

/** The validate stage's step (see createLineValidator). */
export const validateStep = <T>(kind: SchemaKind, options: LineValidatorOptions = {}): Step<Parsed, T> => mapStep(createLineValidator<T>(kind, options));
