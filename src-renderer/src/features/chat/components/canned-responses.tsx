import { type FormEvent, useState } from 'react'
import { Button, FormError } from '../../../components/ui'
import { useSubmit } from '../../../lib/use-submit'
import { useOperatorTools } from '../stores/operator-tools-store'

/** Operators' saved replies: theirs and the shared ones, added and removed here, inserted with `/`. */
export function CannedResponses() {
  const { canned: items, addCanned, deleteCanned } = useOperatorTools()
  const [shortcut, setShortcut] = useState('')
  const [content, setContent] = useState('')
  const [shared, setShared] = useState(false)
  const form = useSubmit('The canned response was not saved.')

  async function add(event: FormEvent) {
    event.preventDefault()
    await form.run(async () => {
      await addCanned({ shortcut: shortcut.replace(/^\//, ''), content, shared })
      setShortcut('')
      setContent('')
    })
  }

  return (
    <details className="canned-panel">
      <summary>Canned responses ({items.length})</summary>
      <ul className="canned-list">
        {items.map((item) => (
          <li key={item.id}>
            <strong>/{item.shortcut}</strong>{' '}
            {item.shared ? <span className="muted small">shared</span> : null}
            <span className="muted small canned-content">{item.content}</span>
            <button type="button" className="linkish small" onClick={() => void deleteCanned(item.id)}>
              delete
            </button>
          </li>
        ))}
      </ul>
      <form className="canned-form" onSubmit={add}>
        <input
          aria-label="Shortcut"
          placeholder="shortcut"
          value={shortcut}
          onChange={(e) => setShortcut(e.target.value)}
          required
        />
        <input
          aria-label="Canned text"
          placeholder="Text inserted by /shortcut"
          value={content}
          onChange={(e) => setContent(e.target.value)}
          required
        />
        <label className="small">
          <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> shared
        </label>
        <Button type="submit" disabled={!shortcut.trim() || !content.trim()}>
          Save
        </Button>
      </form>
      <FormError message={form.error} />
    </details>
  )
}
