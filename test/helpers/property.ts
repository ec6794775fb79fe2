import fc from 'fast-check';

/**
 * fast-check with one seed for every property test, so that a run's verdict never depends on the draw: a property
 * that fails on one draw in a thousand would fail CI now and then. To look further, run with another seed
 * (`FC_SEED=7 npx tap …`) or a fresh one each time (`FC_SEED=random`); a failure prints its seed and path to replay.
 */
const seed = process.env.FC_SEED;
if (seed !== undefined && seed !== 'random' && !Number.isSafeInteger(Number(seed))) throw new Error(`FC_SEED is a number or "random", not ${JSON.stringify(seed)}`);
if (seed !== 'random') fc.configureGlobal({ seed: seed === undefined ? 20261207 : Number(seed) });

export default fc;
