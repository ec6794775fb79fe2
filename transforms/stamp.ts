import type { Transform } from 'node:stream';
import { stampStep, type StampOptions } from '../lib/protocol/stamp.js';
import { stepStream } from '../lib/streams.js';
import { guardStep } from '../lib/output/event-guard.js';
import { checkOptions, STAMPING } from '../lib/options.js';

export type { StampOptions } from '../lib/protocol/stamp.js';

/** event → the event in the run's schema version, with `schemaVersion` and `runId` (see stampStep). */
export function stamp(options: StampOptions = {}): Transform {
  return stepStream(guardStep('stamp', stampStep(checkOptions('stamp', options, STAMPING))));
}
