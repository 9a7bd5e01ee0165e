/**
 * The styles a visit generated, kept for the next one. MUI styles every component with Emotion, which turns each
 * distinct style into CSS and inserts it, rule by rule, while React commits the screen: on the first screen that is
 * one of the longest pieces of work on the main thread. The same build makes the same styles, named by their hash, so
 * the CSS one visit generated (`keepStyles`) is put back in one <style> element when the next visit starts
 * (`restoreStyles`), before the app's code runs. Emotion's cache takes that element in as it would a server-rendered
 * one: the styles it names are not generated nor inserted again. A first visit, or one after a new build, generates
 * them all as before.
 *
 * This module imports nothing at run time: the entry (main.tsx) calls `restoreStyles` before it loads anything else.
 */
import type { EmotionCache } from '@emotion/cache';

/** The key of the app's Emotion cache (styleCache.ts): the prefix of its class names and of its elements' `data-emotion`. */
export const STYLE_CACHE_KEY = 'css';

/** Where the styles are kept: outside react-admin's store, which a logout empties. */
export const KEPT_STYLES_KEY = 'SistemaIntegracao.styles';
/** Past this size (characters) nothing is kept: the next visit starts over and keeps what it used. */
export const MAX_KEPT_STYLES = 512 * 1024;

/** What is kept: which build made the styles, the names Emotion gave them (its cache's key first), and their CSS. */
export interface KeptStyles {
  build: string;
  names: string[];
  css: string;
}

/** The build that runs: the entry's own address, which a new build renames. */
export const currentBuild = () => import.meta.url;

/** The styles kept for this build; those of another build are dropped. */
function readKept(): KeptStyles | undefined {
  try {
    const kept = JSON.parse(localStorage.getItem(KEPT_STYLES_KEY) ?? 'null') as KeptStyles | null;
    if (kept?.build === currentBuild() && Array.isArray(kept.names) && typeof kept.css === 'string') return kept;
    if (kept) localStorage.removeItem(KEPT_STYLES_KEY);
  } catch {
    // Unreadable, or no storage: nothing is put back, and the visit generates its styles.
  }
  return undefined;
}

/**
 * Puts the kept styles back as the element Emotion's cache takes in on creation: `data-emotion` holds the cache's key
 * and then the names of the styles the element holds.
 */
export function restoreStyles(cacheKey = STYLE_CACHE_KEY): void {
  const kept = readKept();
  if (!kept) return;
  const element = document.createElement('style');
  element.setAttribute('data-emotion', [cacheKey, ...kept.names].join(' '));
  element.textContent = kept.css;
  document.head.appendChild(element);
}

/** Keeps the styles `cache` has inserted so far (those restored included), for the next visit of this build. */
export function keepStyles(cache: EmotionCache): void {
  const names = Object.keys(cache.inserted).filter((name) => cache.inserted[name] === true);
  const css = cache.sheet.tags
    .flatMap((tag) => (tag.sheet ? Array.from(tag.sheet.cssRules, (rule) => rule.cssText) : []))
    .join('\n');
  try {
    if (css.length > MAX_KEPT_STYLES) localStorage.removeItem(KEPT_STYLES_KEY);
    else localStorage.setItem(KEPT_STYLES_KEY, JSON.stringify({ build: currentBuild(), names, css }));
  } catch {
    // Storage full or refused: the next visit generates its styles.
  }
}
