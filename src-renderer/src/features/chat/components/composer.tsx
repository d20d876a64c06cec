import { type FormEvent, type KeyboardEvent, type RefObject, useEffect, useRef, useState } from 'react'
import { Button } from '../../../components/ui'
import type { CannedResponse } from '../api/chat-types'

/** A typing event is repeated at most this often while the person keeps typing. */
const TYPING_EVERY_MS = 3000
/** After this long without a keystroke the indicator is switched off. */
const TYPING_IDLE_MS = 4000

export type ComposerMode = 'reply' | 'note'

/** The `/word` being typed at the start of the draft, if any: it picks canned responses by shortcut. */
const slashQuery = (draft: string) => /^\/([\w-]*)$/.exec(draft)?.[1]

/**
 * The message box: Enter sends, Shift+Enter breaks the line. Operators pick Reply or Note and insert canned
 * responses by typing `/` and their shortcut. Typing is announced to the other side, throttled.
 */
export function Composer({
  inputRef,
  disabled,
  placeholder,
  sendLabel,
  operator,
  canned,
  onSend,
  onTyping,
}: {
  inputRef: RefObject<HTMLTextAreaElement | null>
  disabled: boolean
  placeholder: string
  sendLabel: string
  operator: boolean
  canned: CannedResponse[]
  /** Sends the message; false when it could not go (the connection is down): the draft stays. */
  onSend(content: string, mode: ComposerMode): boolean
  onTyping(typing: boolean): void
}) {
  const [draft, setDraft] = useState('')
  const [mode, setMode] = useState<ComposerMode>('reply')
  const [picked, setPicked] = useState(0)
  const lastTyping = useRef(0)
  const idle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const query = operator ? slashQuery(draft) : undefined
  const suggestions =
    query === undefined
      ? []
      : canned.filter((item) => item.shortcut.toLowerCase().startsWith(query.toLowerCase())).slice(0, 8)
  const notesOnly = operator && disabled
  const blocked = disabled && !(mode === 'note' && operator)

  useEffect(() => () => clearTimeout(idle.current), [])

  function stopTyping() {
    clearTimeout(idle.current)
    if (lastTyping.current) onTyping(false)
    lastTyping.current = 0
  }

  function change(value: string) {
    setDraft(value)
    setPicked(0)
    // Notes are between operators: the user is not told someone is typing one.
    if (mode === 'note' || !value) return stopTyping()
    const now = Date.now()
    if (now - lastTyping.current > TYPING_EVERY_MS) {
      lastTyping.current = now
      onTyping(true)
    }
    clearTimeout(idle.current)
    idle.current = setTimeout(stopTyping, TYPING_IDLE_MS)
  }

  function insert(item: CannedResponse) {
    setDraft(item.content)
    inputRef.current?.focus()
  }

  function submit(event?: FormEvent) {
    event?.preventDefault()
    const content = draft.trim()
    if (!content || blocked || !onSend(content, mode)) return
    stopTyping()
    setDraft('')
  }

  function keyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (suggestions.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        const step = event.key === 'ArrowDown' ? 1 : -1
        setPicked((picked + step + suggestions.length) % suggestions.length)
        return
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault()
        insert(suggestions[picked] as CannedResponse)
        return
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault()
      submit()
    }
  }

  return (
    <form className={mode === 'note' ? 'composer composer-note' : 'composer'} onSubmit={submit}>
      {operator ? (
        <div className="composer-modes" role="radiogroup" aria-label="Write">
          {(['reply', 'note'] as const).map((option) => (
            <label key={option}>
              <input
                type="radio"
                name="composer-mode"
                checked={mode === option}
                disabled={option === 'reply' && notesOnly}
                onChange={() => {
                  setMode(option)
                  inputRef.current?.focus()
                }}
              />{' '}
              {option === 'reply' ? 'Reply' : 'Private note'}
            </label>
          ))}
        </div>
      ) : null}
      {suggestions.length > 0 ? (
        <ul className="canned-suggestions" aria-label="Canned responses">
          {suggestions.map((item, index) => (
            <li key={item.id} className={index === picked ? 'active' : ''}>
              <button
                type="button"
                tabIndex={-1}
                aria-current={index === picked}
                onMouseDown={(event) => {
                  event.preventDefault()
                  insert(item)
                }}
              >
                <strong>/{item.shortcut}</strong> <span className="muted">{item.content}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="composer-row">
        <textarea
          ref={inputRef}
          aria-label="Message"
          rows={2}
          placeholder={mode === 'note' ? 'A note only operators see…' : placeholder}
          value={draft}
          disabled={blocked}
          onChange={(e) => change(e.target.value)}
          onKeyDown={keyDown}
          onBlur={stopTyping}
        />
        <Button type="submit" variant="primary" disabled={blocked || !draft.trim()}>
          {mode === 'note' ? 'Add note' : sendLabel}
        </Button>
      </div>
      <p className="muted small composer-hint">
        Enter sends · Shift+Enter for a new line{operator ? ' · / inserts a canned response' : ''}
      </p>
    </form>
  )
}
