import { describe, expect, it } from 'vitest'
import { asksForHuman, cannotAnswer } from './handoff-signals'

/** Per language: requests for a person, then messages that mention one without asking for one. */
const languages = {
  en: {
    asks: [
      'Can I talk to a human, please?',
      'I want to speak with a real person',
      'Please connect me to an agent.',
      'Could you transfer me to a representative?',
      'I need a human',
      'Human, please!',
      'operator',
      'Let me talk to someone',
    ],
    not: [
      'Is a human needed for this?',
      'Are you a human?',
      'I need someone to explain the refund policy.',
      "I don't want to talk to a person, just tell me the opening hours.",
      'What does a sales representative earn?',
      'How do I reset my password?',
    ],
  },
  de: {
    asks: [
      'Ich möchte mit einem Menschen sprechen',
      'Kann ich bitte mit einem Mitarbeiter reden?',
      'Verbinden Sie mich mit einem Berater.',
      'Mensch bitte',
    ],
    not: [
      'Braucht man dafür einen Menschen?',
      'Ich möchte nicht mit einem Menschen sprechen.',
      'Wie viele Mitarbeiter hat die Firma?',
    ],
  },
  fr: {
    asks: [
      'Je voudrais parler à un conseiller',
      'Est-ce que je peux parler avec une vraie personne ?',
      'Mettez-moi en relation avec un agent, s’il vous plaît.',
      'Un humain !',
    ],
    not: [
      'Est-ce qu’un humain est nécessaire pour cela ?',
      'Combien de conseillers travaillent ici ?',
      'Quel est le délai de remboursement ?',
    ],
  },
  es: {
    asks: [
      '¿Puedo hablar con una persona?',
      'Quiero hablar con un agente, por favor.',
      'Pásame con un asesor.',
      'Una persona, por favor',
    ],
    not: [
      '¿Se necesita un humano para esto?',
      'No quiero hablar con una persona, solo dime el horario.',
      '¿Cuántas personas trabajan aquí?',
    ],
  },
}

describe('asksForHuman', () => {
  for (const [language, { asks, not }] of Object.entries(languages)) {
    it.each(asks)(`${language}: "%s" asks for a person`, (text) => {
      expect(asksForHuman(text)).toBe(true)
    })
    it.each(not)(`${language}: "%s" does not`, (text) => {
      expect(asksForHuman(text)).toBe(false)
    })
  }
})

describe('cannotAnswer', () => {
  it("recognises the builtin model's admission and leaves answers alone", () => {
    expect(cannotAnswer('No knowledge was retrieved for this question.')).toBe(true)
    expect(cannotAnswer('The store opens at 9 [1].')).toBe(false)
  })
})
