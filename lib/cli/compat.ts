import { UsageError } from '../errors.js';

// Flags Zero's users pass whose effect zero-stream has only in part, or not at all: each is accepted, and what it
// does not do here is said in a warning, never silently dropped.

type Mode = { model: string; effort: 'low' | 'medium' | 'high'; maxTurns?: number };

/** Zero's --mode presets (internal/modelregistry/modes.go), in its order: a model of its catalog, a reasoning effort, some a turn limit. */
export const MODES: Readonly<Record<string, Mode>> = {
  smart: { model: 'claude-sonnet-4.5', effort: 'medium' },
  deep: { model: 'claude-opus-4.1', effort: 'high', maxTurns: 50 },
  fast: { model: 'claude-haiku-4.5', effort: 'low', maxTurns: 15 },
  large: { model: 'gemini-2.5-pro', effort: 'medium' },
  precise: { model: 'claude-sonnet-4.5', effort: 'high' },
};

export type CompatFlags = { mode?: string; maxTurns?: string; allowEscalation?: boolean; selfCorrect?: boolean };

/** Zero's LookupMode: trimmed, any case; an unknown name is a usage error listing the modes, as Zero's is. */
function modeNamed(given: string): [string, Mode] {
  const name = given.trim().toLowerCase();
  const mode = Object.hasOwn(MODES, name) ? MODES[name] : undefined;
  if (!mode) throw new UsageError(`Unknown mode "${given}". Valid modes: ${Object.keys(MODES).join(', ')}.`);
  return [name, mode];
}

/**
 * --mode, --allow-escalation and --self-correct: the turn limit a mode brings (a preset: --max-turns wins over it,
 * as in Zero), and a warning for each part that does nothing here.
 */
export function compatSettings(raw: CompatFlags): { maxTurns?: number; warnings: string[] } {
  const warnings: string[] = [];
  let maxTurns: number | undefined;
  if (raw.mode !== undefined) {
    const [name, mode] = modeNamed(raw.mode);
    maxTurns = raw.maxTurns === undefined ? mode.maxTurns : undefined;
    const turns = maxTurns === undefined ? '' : `its turn limit (${maxTurns}) applies; `;
    warnings.push(`--mode ${name}: ${turns}its model (${mode.model}) and reasoning effort (${mode.effort}) are not applied: zero-stream has no model catalog to map them to this provider. Choose the model with --model.`);
  }
  if (raw.allowEscalation) warnings.push('--allow-escalation changes nothing here: zero-stream has no escalate_model tool, so the run keeps its model.');
  if (raw.selfCorrect) warnings.push("--self-correct changes nothing here: zero-stream does not run the project's tests or language servers after an edit to feed failures back to the model.");
  return { maxTurns, warnings };
}
