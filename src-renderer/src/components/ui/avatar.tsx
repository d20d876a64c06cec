import { apiBase } from '../../lib/api-client'

/** A person's picture, or the first letter of their name when they set none (or it fails to load). */
export function Avatar({
  person,
  size = 30,
}: {
  person: { username: string; avatar_url: string | null } | null | undefined
  size?: number
}) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.45) }
  if (person?.avatar_url)
    return (
      <img className="avatar" src={person.avatar_url} alt="" style={style} referrerPolicy="no-referrer" />
    )
  return (
    <span className="avatar" aria-hidden="true" style={style}>
      {person?.username.slice(0, 1).toUpperCase()}
    </span>
  )
}
