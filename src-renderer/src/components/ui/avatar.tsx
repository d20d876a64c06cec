import { useState } from 'react'
import { apiBase } from '../../lib/api-client'

/** A person's picture, or the first letter of their name when they set none or it fails to load. */
export function Avatar({
  person,
  size = 30,
}: {
  person: { username: string; avatar_url: string | null } | null | undefined
  size?: number
}) {
  const [failedUrl, setFailedUrl] = useState<string | null>(null)
  const style = { width: size, height: size, fontSize: Math.round(size * 0.45) }
  const url = person?.avatar_url
  if (url && url !== failedUrl) {
    // A stored picture is served by the API under a path; the desktop window loads the console from a file.
    const src = url.startsWith('/') ? `${apiBase()}${url}` : url
    return (
      <img
        className="avatar"
        src={src}
        alt=""
        style={style}
        referrerPolicy="no-referrer"
        onError={() => setFailedUrl(url)}
      />
    )
  }
  return (
    <span className="avatar" aria-hidden="true" style={style}>
      {person?.username.slice(0, 1).toUpperCase()}
    </span>
  )
}
