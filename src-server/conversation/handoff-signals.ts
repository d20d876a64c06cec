/**
 * When a session waits for a human: the user asked for one (in English, German, French or Spanish), or the AI
 * said it cannot answer. A request needs a request's shape (a verb of talking or connecting aimed at a person,
 * or a message that is nothing but "a human, please"): a question that merely mentions a person ("Is a human
 * needed for this?") is not one. An operator can still take any session over.
 */

/** Lower case without accents, so "à", "é", "ü" and "ñ" match their plain letters. */
const normalise = (text: string) =>
  text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[’`]/g, "'")

const EN_PERSON =
  '(?:(?:a|an|the|some|your|one of your|a real|a live|an actual)\\s+)?(?:real\\s+|live\\s+|actual\\s+)?(?:human(?:\\s+being)?|person|people|someone|somebody|agent|operator|representative|rep|staff|support team|customer service|member of (?:your )?staff)'
/** Who a plain wish asks for ("I need someone to fix this" is not a request for a person). */
const EN_HUMAN =
  '(?:(?:a|an|the|some|a real|a live|an actual)\\s+)?(?:real\\s+|live\\s+)?(?:human(?:\\s+being)?|person|operator|representative|live agent)'
const DE_PERSON =
  '(?:(?:einem|einer|einen|dem|der|ihrem|ihrer)\\s+)?(?:echten\\s+|richtigen\\s+|lebenden\\s+)?(?:menschen|mensch|person|mitarbeiter(?:in)?|berater(?:in)?|kundenberater(?:in)?|kundendienst|support|operator|agenten|jemandem)'
const FR_PERSON =
  "(?:(?:un|une|le|la|votre|l')\\s*)?(?:vrai(?:e)?\\s+)?(?:humain|etre humain|personne(?:\\s+reelle)?|conseiller(?:e)?|agent|operat(?:eur|rice)|quelqu'un|service client)"
const ES_PERSON =
  '(?:(?:un|una|el|la|alguna)\\s+)?(?:(?:ser\\s+)?humano|humana|persona(?:\\s+real)?|agente|operador(?:a)?|asesor(?:a)?|representante|alguien)'

const REQUESTS: RegExp[] = [
  // en: "talk to a human", "speak with someone", "connect me to an agent", "I want a real person"
  new RegExp(`\\b(?:talk|speak|chat)\\s+(?:to|with)\\s+${EN_PERSON}\\b`),
  new RegExp(`\\b(?:connect|transfer|put|pass)\\s+me\\s+(?:through\\s+)?(?:to|with)\\s+${EN_PERSON}\\b`),
  new RegExp(
    `\\b(?:i\\s+(?:want|need|would like|'d like)|can i (?:get|have)|get me|give me)\\s+${EN_HUMAN}\\b`,
  ),
  // de: "mit einem Menschen sprechen", "verbinden Sie mich mit einem Mitarbeiter"
  new RegExp(`\\bmit\\s+${DE_PERSON}\\b.*\\b(?:sprechen|reden|chatten|verbunden|verbinden|schreiben)\\b`),
  new RegExp(`\\b(?:sprechen|reden|chatten|verbinden)\\b.*\\bmit\\s+${DE_PERSON}\\b`),
  // fr: "parler à un conseiller", "mettez-moi en relation avec un agent"
  new RegExp(`\\b(?:parler|discuter|echanger)\\s+(?:a|avec)\\s+${FR_PERSON}`),
  new RegExp(`\\ben\\s+(?:relation|contact)\\s+avec\\s+${FR_PERSON}`),
  // es: "hablar con una persona", "pásame con un agente"
  new RegExp(`\\b(?:hablar|conversar|comunicarme|chatear)\\s+con\\s+${ES_PERSON}\\b`),
  new RegExp(`\\b(?:pasame|comuniqueme|conecteme|conectame|transfiereme)\\s+con\\s+${ES_PERSON}\\b`),
]

/** A message that is only the request: "Human, please", "Mensch bitte", "Un humain !", "Una persona, por favor". */
const BARE_REQUEST =
  /^\W*(?:an?\s+|un\s+|une\s+|una\s+|einen\s+)?(?:real\s+|live\s+)?(?:human|person|operator|agent|representative|mensch(?:en)?|mitarbeiter|humain|conseiller|humano|persona|agente)(?:\W+(?:please|pls|now|bitte|s'il (?:vous|te) plait|por favor))?\W*$/

/** "I don't want to talk to a human", "no need to speak to a person": the words without the wish. */
const DECLINED =
  /\b(?:do not|don't|dont|no need to|never|nicht|pas besoin de|ne veux pas|no quiero|no necesito)\b[^.!?]{0,20}$/

export function asksForHuman(text: string): boolean {
  const normalised = normalise(text)
  if (BARE_REQUEST.test(normalised)) return true
  for (const pattern of REQUESTS) {
    const match = pattern.exec(normalised)
    if (match && !DECLINED.test(normalised.slice(0, match.index))) return true
  }
  return false
}

const CANNOT_ANSWER =
  /(no knowledge was retrieved|I (do not|don't|cannot|can't|am unable to|am not able to) (answer|help|find|know)|I have no information)/i

export const cannotAnswer = (text: string) => CANNOT_ANSWER.test(text)
