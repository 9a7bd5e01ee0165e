/**
 * English words that Portuguese does not use, to find a text left in English on a Portuguese screen or note.
 * Product and platform names (Hiper, Nuvemshop, webhook, token, e-mail, SKU, NF-e) are Portuguese usage here.
 */
const ENGLISH = new Set(
  (
    'the and of is are was were has have had not with this that these those from been nothing could would should ' +
    'did does order orders store stores client clients queued recorded answered refused erased unknown older already ' +
    'after before which there their your please error errors failed success successfully toggle refresh mode light ' +
    'dark fulfilled unfulfilled pending paid shipped key security something went wrong response successful received ' +
    'an to for by on off in it its be or at if all any show save cancel delete edit create new search filter next ' +
    'previous loading close yes user users name password due sent send sending held hold cancelled processed invoiced ' +
    'rejected uncertain running succeeded partial idle suspended revoked disconnected never synced handled ignored ' +
    'unsigned signed product products link links missing found see more less than'
  ).split(' '),
);

/** The English words of a text, in the order they appear (lower case). */
export function englishIn(text: string): string[] {
  return (text.toLowerCase().match(/[a-zà-ÿ]+/g) ?? []).filter((word) => ENGLISH.has(word));
}
