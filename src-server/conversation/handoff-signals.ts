/**
 * When a session waits for a human: the user asked for one, or the AI said it cannot answer. Plain patterns on
 * the text, in English: a model that answers in another language is not caught, and an operator can still
 * take any session over.
 */
const ASKS_FOR_HUMAN =
  /\b(human|real person|live (agent|person|chat)|(an?|the|your) operator|representative|talk to (a |an |some)?(person|someone|somebody)|speak to (a |an |some)?(person|someone|somebody))\b/i

const CANNOT_ANSWER =
  /(no knowledge was retrieved|I (do not|don't|cannot|can't|am unable to|am not able to) (answer|help|find|know)|I have no information)/i

export const asksForHuman = (text: string) => ASKS_FOR_HUMAN.test(text)
export const cannotAnswer = (text: string) => CANNOT_ANSWER.test(text)
