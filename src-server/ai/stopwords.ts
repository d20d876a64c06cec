/**
 * English function words: the builtin embedder weighs them down, the builtin model's overlap scores and BM25
 * queries leave them out. Without corpus statistics they would dominate every vector and every posting list.
 */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about after all also am an and any are as at be been before being but by can could did do does done ' +
    'during each for from had has have he her his how i if in into is it its just know many may me might more ' +
    'most much my no not now of on one only or other our over own please same shall she should so some such ' +
    'tell than that the their them then there these they this those to too two under very was we were what ' +
    'when where which while who whom whose why will with would you your'
  ).split(' '),
)
