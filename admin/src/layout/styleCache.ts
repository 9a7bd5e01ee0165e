import createCache from '@emotion/cache';
import { STYLE_CACHE_KEY } from './keptStyles';

/**
 * The Emotion cache every MUI style goes through (App.tsx provides it and keeps what it holds for the next visit).
 * Created once main.tsx has put back the styles of the last visit (keptStyles.ts): it takes them in, and generates and
 * inserts only the styles that visit did not use.
 */
export const styleCache = createCache({ key: STYLE_CACHE_KEY });
