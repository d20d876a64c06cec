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

/**
 * Function and question words of German, French and Spanish: the builtin model leaves them out when it matches a
 * question in one of those languages against a sentence (not for English ones: "war" and "die" are English too).
 */
export const NON_ENGLISH_FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    'der die das den dem des ein eine einer eines einem einen und oder ist sind war waren wird werden hat haben ' +
    'wer wem wen wessen was wann wo woher wohin wie welche welcher welches welchen warum im in am an auf aus bei ' +
    'mit von zu zum zur für über nach vor es sie er man nicht kein keine gibt viel viele ' +
    'le la les un une des du de d l et ou est sont était étaient qui que qu quoi quand où comment combien quel ' +
    'quelle quels quelles pourquoi au aux en dans par pour sur avec ce cette ces il elle ils elles on ne pas ' +
    'el los las unos unas del y o es son fue eran quién quiénes qué cuándo dónde cómo cuánto cuántos cuánta ' +
    'cuántas cuál cuáles por para con en su sus se lo al hay'
  ).split(' '),
)
