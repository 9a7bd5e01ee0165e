import createCache from '@emotion/cache';
import { afterEach, describe, expect, it } from 'vitest';
import { currentBuild, keepStyles, KEPT_STYLES_KEY, MAX_KEPT_STYLES, restoreStyles } from './keptStyles';

type Cache = ReturnType<typeof createCache>;

/** Inserts a style as Emotion does for a component's class: under `.key-name`, remembered by name. */
const insert = (cache: Cache, name: string, styles: string) =>
  cache.insert(`.${cache.key}-${name}`, { name, styles, next: undefined }, cache.sheet, true);

/** A fresh cache over the document as it is, with two styles inserted. */
function cacheWithStyles(key: string) {
  const cache = createCache({ key, speedy: true });
  insert(cache, 'one', 'color: rgb(1, 2, 3);');
  insert(cache, 'two', 'margin: 4px; &:hover { margin: 5px; }');
  return { cache, names: ['one', 'two'] };
}

afterEach(() => {
  localStorage.clear();
  document.head.innerHTML = '';
});

describe('kept styles', () => {
  it("puts one visit's styles back for the next, which takes them in and generates none of them", () => {
    const first = cacheWithStyles('kept');
    keepStyles(first.cache);
    document.head.innerHTML = '';

    restoreStyles('kept');
    const element = document.head.querySelector('style[data-emotion^="kept "]');
    expect(element?.getAttribute('data-emotion')).toBe(['kept', ...first.names].join(' '));
    expect(element?.textContent).toContain('rgb(1, 2, 3)');
    expect(element?.textContent).toContain(':hover');

    const second = createCache({ key: 'kept', speedy: true });
    for (const name of first.names) expect(second.inserted[name]).toBe(true);
  });

  it('drops the styles of another build', () => {
    localStorage.setItem(KEPT_STYLES_KEY, JSON.stringify({ build: 'an-older-build.js', names: ['a'], css: '.x{}' }));
    restoreStyles('kept');
    expect(document.head.querySelector('style')).toBeNull();
    expect(localStorage.getItem(KEPT_STYLES_KEY)).toBeNull();
  });

  it('keeps nothing past its size, and then the next visit starts over', () => {
    const { cache } = cacheWithStyles('big');
    insert(cache, 'huge', `content: "${'x'.repeat(MAX_KEPT_STYLES)}";`);
    localStorage.setItem(KEPT_STYLES_KEY, JSON.stringify({ build: currentBuild(), names: ['old'], css: '.old{}' }));
    keepStyles(cache);
    expect(localStorage.getItem(KEPT_STYLES_KEY)).toBeNull();
  });
});
