import path from 'node:path';

/** True when running the tsc output in dist/ rather than the TypeScript sources. */
export const compiled = __filename.endsWith('.js');
/** The repository root, from the sources (gateway/) or from the build (dist/gateway/). */
export const projectRoot = path.resolve(__dirname, '..', ...(compiled ? ['..'] : []));
