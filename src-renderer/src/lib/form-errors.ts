import { useState } from 'react'
import { ApiError } from './api-client'

/** One failing field as the server's error envelope names it: `{field: 'body.title', message}`. */
interface FieldIssue {
  field: string
  message: string
}

const isIssue = (value: unknown): value is FieldIssue =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as FieldIssue).field === 'string' &&
  typeof (value as FieldIssue).message === 'string'

/** Ajv's "must NOT have more than 64 characters" reads as a sentence once its capitals are gone. */
const sentence = (message: string) => message.replace(/\bNOT\b/g, 'not')

/** The field a form shows for an issue: `body.title` is `title`, `body.default_chunking_params.chunk_size` keeps its path. */
const fieldName = (field: string) => field.replace(/^(body|query|params|headers)\./, '')

/**
 * A form's failure split the way a person reads it: each validation detail at the field it belongs to, and the
 * rest (other codes, or fields this form does not show) as the form's message, in the server's words.
 */
export function useFormErrors(shownFields: readonly string[]) {
  const [message, setMessage] = useState<string | null>(null)
  const [fields, setFields] = useState<Record<string, string>>({})

  function fail(caught: unknown, fallback: string) {
    if (!(caught instanceof ApiError)) {
      setFields({})
      setMessage(fallback)
      return
    }
    const issues = Array.isArray(caught.details.fields) ? caught.details.fields.filter(isIssue) : []
    const atFields: Record<string, string> = {}
    const elsewhere: string[] = []
    for (const issue of issues) {
      const name = fieldName(issue.field)
      if (shownFields.includes(name)) atFields[name] ??= sentence(issue.message)
      else elsewhere.push(`${name}: ${sentence(issue.message)}`)
    }
    setFields(atFields)
    if (issues.length === 0) setMessage(caught.message)
    else if (elsewhere.length > 0) setMessage(`${caught.message} ${elsewhere.join('; ')}`)
    else setMessage('Check the fields marked below.')
  }

  function clear() {
    setMessage(null)
    setFields({})
  }

  return { message, fieldError: (name: string) => fields[name] ?? null, fail, clear }
}
