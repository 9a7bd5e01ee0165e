/**
 * react-admin's default exporter's CSV writer (jsonexport), fetched only when that exporter runs: every list passes its
 * own (columns.tsx), so it never does, and its code need not come with the first screen. The build gives this module
 * to whoever imports jsonexport (vite.config.mts).
 */
export default function jsonExport(...args: unknown[]): Promise<unknown> {
  // @ts-expect-error: jsonexport ships no types, and only this module calls it.
  return import('jsonexport/dist/index.js').then(({ default: write }) => write(...args));
}
